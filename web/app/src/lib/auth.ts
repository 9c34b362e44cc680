import { ref, computed } from 'vue'

// The session token lives in localStorage so a reload keeps the login; the
// server ends idle sessions after 30 minutes, and an UNAUTHENTICATED answer
// to a request that carried a token clears it (see client.ts).
const KEY = 'hmdp.token'
// The phone of the last login, kept on this device so that the profile form
// can send a code to it (a new password needs one); gone at logout.
const PHONE_KEY = 'hmdp.phone'

function load(): string | null {
  try {
    return localStorage.getItem(KEY)
  } catch {
    return null
  }
}

export const token = ref<string | null>(load())
export const loggedIn = computed(() => token.value !== null)

const listeners = new Set<() => void>()

/** onAuthChange runs fn after every login and logout (the client reconnects its websocket). */
export function onAuthChange(fn: () => void): void {
  listeners.add(fn)
}

export function setToken(t: string | null): void {
  if (t === token.value) return
  token.value = t
  try {
    if (t === null) {
      localStorage.removeItem(KEY)
      localStorage.removeItem(PHONE_KEY)
    } else localStorage.setItem(KEY, t)
  } catch {
    // private mode: the session lasts until the tab closes
  }
  listeners.forEach((fn) => fn())
}

export function authHeader(): Record<string, string> {
  return token.value ? { Authorization: `Bearer ${token.value}` } : {}
}

/** rememberPhone keeps the phone the user logged in with (see loginPhone). */
export function rememberPhone(phone: string): void {
  try {
    localStorage.setItem(PHONE_KEY, phone)
  } catch {
    /* private mode: the profile form asks for it */
  }
}

/** loginPhone is the phone of the current login on this device, or "" when unknown. */
export function loginPhone(): string {
  try {
    return (token.value && localStorage.getItem(PHONE_KEY)) || ''
  } catch {
    return ''
  }
}
