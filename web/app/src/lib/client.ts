import { ref, watch } from 'vue'
import { Client, fetchExchange, subscriptionExchange, mapExchange } from '@urql/core'
import type { Client as WSClient } from 'graphql-ws'
import { token, authHeader, onAuthChange, setToken } from './auth'
import { errorCode } from './errors'
import { trackedFetch } from './network'

// No document cache: every page asks the server (pages keep their own lists
// for infinite scroll), so what is shown is always live.
//
// One urql client for the whole app: queries and mutations POST to
// same-origin /graphql with the bearer token; subscriptions use
// graphql-transport-ws on the same path with the token in connection_init.

function wsURL(): string {
  const u = new URL('/graphql', location.href)
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:'
  return u.toString()
}

// graphql-ws is loaded with the first subscription, not with the app: most
// first visits (Home, a type's list) never open one, and the shop page's
// live stock can wait until the page has been shown and the browser is
// idle (at most a second), not to lengthen the tasks that show it.
let ws: Promise<WSClient> | null = null

function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 1000 })
    else setTimeout(resolve, 0)
  })
}

/** wsConnected is true while the subscription socket is acknowledged by the server. */
export const wsConnected = ref(false)

/**
 * whenSocketUp runs fn each time the subscription socket comes up (is
 * acknowledged) while the calling component lives: the first time, if it was
 * not up at the call, and after every drop. Events sent before a subscription
 * listened, or while the socket was down, never come: fn reads them instead.
 */
export function whenSocketUp(fn: () => void): void {
  watch(wsConnected, (up) => {
    if (up) fn()
  })
}

function socket(): Promise<WSClient> {
  if (ws) return ws
  const mine: Promise<WSClient> = idle().then(async () => {
    const { createClient } = await import('graphql-ws')
    const c = createClient({
      url: wsURL(),
      lazy: true,
      lazyCloseTimeout: 3000,
      retryAttempts: Infinity,
      // Reconnect after network trouble and server restarts, but not when the
      // server refused the token (4403: expired or logged out elsewhere).
      shouldRetry: (e) => !(e instanceof CloseEvent && e.code === 4403),
      connectionParams: () => (token.value ? { authorization: `Bearer ${token.value}` } : {}),
    })
    c.on('connected', () => {
      if (ws === mine) wsConnected.value = true
    })
    c.on('closed', (e) => {
      if (ws !== mine) return
      wsConnected.value = false
      if (e instanceof CloseEvent && e.code === 4403) setToken(null)
    })
    return c
  })
  // A chunk that did not load (offline) is asked for again by the next subscription.
  mine.catch(() => {
    if (ws === mine) ws = null
  })
  ws = mine
  return mine
}

// A login or logout changes who the socket speaks for: drop it; pages open
// their subscriptions again when they mount (on a new socket).
onAuthChange(() => {
  const old = ws
  ws = null
  wsConnected.value = false
  old?.then((c) => c.dispose()).catch(() => {})
})

export const client = new Client({
  url: '/graphql',
  preferGetMethod: false,
  requestPolicy: 'network-only',
  fetchOptions: () => ({ headers: authHeader() }),
  // Notes answers the service worker served from its cache (offline).
  fetch: trackedFetch,
  exchanges: [
    mapExchange({
      onError(error) {
        // A token the server no longer knows (expired or logged out
        // elsewhere): forget it so the app shows the logged-out state.
        if (token.value !== null && error.graphQLErrors.some((e) => errorCode(e.extensions) === 'UNAUTHENTICATED')) {
          setToken(null)
        }
      },
    }),
    fetchExchange,
    subscriptionExchange({
      forwardSubscription(request) {
        const input = { ...request, query: request.query || '' }
        return {
          subscribe(sink) {
            let stop: (() => void) | null = null
            let stopped = false
            socket().then(
              (c) => {
                if (!stopped) stop = c.subscribe(input, sink)
              },
              (e: unknown) => {
                if (!stopped) sink.error(e)
              },
            )
            return {
              unsubscribe() {
                stopped = true
                stop?.()
              },
            }
          },
        }
      },
    }),
  ],
})
