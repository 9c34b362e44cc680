/**
 * yieldToMain resolves in a new task, so that the browser can paint and
 * handle input in between: work split this way is several short tasks
 * instead of one long one (Lighthouse's Total Blocking Time counts what a
 * task takes beyond 50 ms). scheduler.yield where the browser has it (the
 * continuation runs before other queued tasks), else a message to itself,
 * which unlike setTimeout(0) is never clamped to 4 ms.
 */
export function yieldToMain(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (typeof s?.yield === 'function') return s.yield()
  return new Promise((resolve) => {
    const ch = new MessageChannel()
    ch.port1.onmessage = () => {
      ch.port1.close()
      resolve()
    }
    ch.port2.postMessage(null)
  })
}
