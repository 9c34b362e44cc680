import { ref, computed } from 'vue'

// The session token lives in localStorage so a reload keeps the login; the
// server ends idle sessions after 30 minutes, and an UNAUTHENTICATED answer
// to a request that carried a token clears it (see client.ts).
const KEY = 'hmdp.token'

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
    if (t === null) localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, t)
  } catch {
    // private mode: the session lasts until the tab closes
  }
  listeners.forEach((fn) => fn())
}

export function authHeader(): Record<string, string> {
  return token.value ? { Authorization: `Bearer ${token.value}` } : {}
}
