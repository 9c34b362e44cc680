import { ref } from 'vue'

/**
 * What the app could not load because the network is down, for the banner
 * App.vue shows with a Retry button (and retries by itself at the window's
 * `online` event):
 *
 * - 'page': a route's chunk failed to load, so the navigation to `to` did
 *   not happen; Retry navigates again.
 * - 'data': a query got no answer at all (fetch itself failed); Retry shows
 *   the current page again, which asks again.
 */
export interface LoadFailure {
  kind: 'page' | 'data'
  to?: string
  /** offline: the browser said it had no network when it failed (else the server could not be reached). */
  offline: boolean
}

/** failure records what did not load, and whether the browser was offline then. */
export function failure(kind: LoadFailure['kind'], to?: string): LoadFailure {
  return { kind, to, offline: typeof navigator !== 'undefined' && navigator.onLine === false }
}

export const loadFailure = ref<LoadFailure | null>(null)

/**
 * loadGeneration counts the fresh starts (a new page, a Retry, back online):
 * a request's failure or stale answer counts only if no fresh start came
 * since it was sent. A request sent offline may fail only after the browser
 * is back online and the page has asked again; its failure would otherwise
 * say "cannot be reached" over a page that loaded.
 */
export const loadGeneration = ref(0)

/** freshStart begins a new generation: older requests' failures no longer count. */
export function freshStart(): void {
  loadFailure.value = null
  stale.value = false
  loadGeneration.value++
}

/**
 * stale is true while the page shows an answer the service worker kept
 * from an earlier visit because the network failed (src/sw.js marks such
 * answers with the header STALE_HEADER).
 */
export const stale = ref(false)

/** STALE_HEADER is set by the service worker on an answer from its cache. */
export const STALE_HEADER = 'X-HMDP-Offline'

/**
 * isChunkLoadError tells a failed dynamic import (a route's chunk, or a
 * module it imports) from other navigation errors. Browsers word it
 * differently: Chromium "Failed to fetch dynamically imported module",
 * Firefox "error loading dynamically imported module", Safari "Importing a
 * module script failed"; Vite's preload helper "Unable to preload CSS".
 */
export function isChunkLoadError(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : String(e)
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(msg)
}

/**
 * isUnreachable tells a request that got no answer (fetch rejected: no
 * network, DNS, connection refused) from one the server answered badly.
 */
export function isUnreachable(e: unknown): boolean {
  return e instanceof TypeError
}

/** trackedFetch is fetch for the GraphQL client: it notes answers served from the service worker's cache. */
export async function trackedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const gen = loadGeneration.value
  const r = await fetch(input, init)
  if (r.headers.has(STALE_HEADER) && gen === loadGeneration.value) stale.value = true
  return r
}
