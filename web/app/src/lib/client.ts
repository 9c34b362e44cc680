import { ref } from 'vue'
import { Client, fetchExchange, subscriptionExchange, mapExchange } from '@urql/core'
import { createClient as createWSClient, type Client as WSClient } from 'graphql-ws'
import { token, authHeader, onAuthChange, setToken } from './auth'

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

let ws: WSClient | null = null

/** wsConnected is true while the subscription socket is acknowledged by the server. */
export const wsConnected = ref(false)

function socket(): WSClient {
  if (!ws) {
    ws = createWSClient({
      url: wsURL(),
      lazy: true,
      lazyCloseTimeout: 3000,
      retryAttempts: Infinity,
      // Reconnect after network trouble and server restarts, but not when the
      // server refused the token (4403: expired or logged out elsewhere).
      shouldRetry: (e) => !(e instanceof CloseEvent && e.code === 4403),
      connectionParams: () => (token.value ? { authorization: `Bearer ${token.value}` } : {}),
    })
    const mine = ws
    ws.on('connected', () => {
      if (ws === mine) wsConnected.value = true
    })
    ws.on('closed', (e) => {
      if (ws !== mine) return
      wsConnected.value = false
      if (e instanceof CloseEvent && e.code === 4403) setToken(null)
    })
  }
  return ws
}

// A login or logout changes who the socket speaks for: drop it; pages open
// their subscriptions again when they mount (on a new socket).
onAuthChange(() => {
  const old = ws
  ws = null
  wsConnected.value = false
  void old?.dispose()
})

export const client = new Client({
  url: '/graphql',
  preferGetMethod: false,
  requestPolicy: 'network-only',
  fetchOptions: () => ({ headers: authHeader() }),
  exchanges: [
    mapExchange({
      onError(error) {
        // A token the server no longer knows (expired or logged out
        // elsewhere): forget it so the app shows the logged-out state.
        if (token.value !== null && error.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED')) {
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
            const unsubscribe = socket().subscribe(input, sink)
            return { unsubscribe }
          },
        }
      },
    }),
  ],
})
