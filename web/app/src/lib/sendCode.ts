import { onBeforeUnmount, ref } from 'vue'
import { mutate, type Res } from './api'
import { SendCodeMutation } from './ops'
import type { SendCodeMutation as SendCodeData } from '../gql/graphql'

/** validPhone: an 11-digit mobile number starting with 13 to 19, as the server takes. */
export function validPhone(phone: string): boolean {
  return /^1[3-9]\d{9}$/.test(phone.trim())
}

/** The server sends one code per phone per minute. */
export const RESEND_SECONDS = 60

/**
 * useCodeSender sends login codes (sendCode) and counts down until the next
 * one may be asked for: 60 s after a code was sent, or the retry time the
 * server gave with RATE_LIMITED. Call it in a component's setup.
 */
export function useCodeSender() {
  const wait = ref(0) // seconds until Send code may be pressed again
  const sending = ref(false)
  let timer = 0

  function startWait(s: number) {
    // Counted from the clock, not by ticks: timers fire late on a busy
    // phone and rarely in a background tab, and the wait must still end on time.
    const until = Date.now() + s * 1000
    wait.value = s
    window.clearInterval(timer)
    timer = window.setInterval(() => {
      wait.value = Math.max(0, Math.ceil((until - Date.now()) / 1000))
      if (wait.value <= 0) window.clearInterval(timer)
    }, 250)
  }

  async function send(phone: string): Promise<Res<SendCodeData>> {
    sending.value = true
    const r = await mutate(SendCodeMutation, { phone: phone.trim() })
    sending.value = false
    if (!r.error) startWait(RESEND_SECONDS)
    else if (r.error.code === 'RATE_LIMITED' && r.error.retryAfterMs) startWait(Math.ceil(r.error.retryAfterMs / 1000))
    return r
  }

  onBeforeUnmount(() => window.clearInterval(timer))
  return { wait, sending, send }
}
