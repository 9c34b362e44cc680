import { onBeforeUnmount, ref } from 'vue'

/** useNow is the current time in ms, updated every second while the component lives. */
export function useNow() {
  const now = ref(Date.now())
  const id = window.setInterval(() => (now.value = Date.now()), 1000)
  onBeforeUnmount(() => window.clearInterval(id))
  return now
}

export function countdown(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  const d = Math.floor(s / 86400)
  const hh = String(Math.floor((s % 86400) / 3600)).padStart(2, '0')
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0')
  const ss = String(s % 60).padStart(2, '0')
  return (d > 0 ? `${d}d ` : '') + `${hh}:${mm}:${ss}`
}

/**
 * askWhile calls ask after `first` ms, then at doubling intervals (at most
 * `max` apart), for as long as holds() is true; the returned function stops
 * it. For a state an event should end but that must not hang when the event
 * is missed.
 */
export function askWhile(holds: () => boolean, ask: () => Promise<unknown>, first = 2_000, max = 30_000): () => void {
  let timer: number | undefined
  let stopped = false
  const next = (delay: number) => {
    timer = window.setTimeout(async () => {
      if (stopped || !holds()) return
      await ask()
      if (!stopped && holds()) next(Math.min(delay * 2, max))
    }, delay)
  }
  next(first)
  return () => {
    stopped = true
    window.clearTimeout(timer)
  }
}
