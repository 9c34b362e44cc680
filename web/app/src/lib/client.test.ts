import { describe, expect, it, vi } from 'vitest'
import { SaleUpdatesSubscription } from './ops'

// graphql-ws, replaced: what the app asks of it is recorded.
const sockets: { subscribe: ReturnType<typeof vi.fn>; stops: number }[] = []
vi.mock('graphql-ws', () => ({
  createClient: vi.fn(() => {
    const s = {
      stops: 0,
      subscribe: vi.fn(() => () => {
        s.stops++
      }),
      on: vi.fn(),
      dispose: vi.fn(),
    }
    sockets.push(s)
    return s
  }),
}))

const settle = () => new Promise((r) => setTimeout(r, 50))

// The websocket client is loaded with the first subscription (a first visit
// to most pages never opens one), and a subscription stopped while it loads
// is never sent.
describe('the subscription socket', () => {
  it('is made for the first subscription, not with the client', async () => {
    const { client } = await import('./client')
    await settle()
    expect(sockets).toHaveLength(0)

    // Stopped before the socket is there (the client has passed it on,
    // graphql-ws is not loaded yet): nothing is subscribed.
    const early = client.subscription(SaleUpdatesSubscription, { ids: ['1'] }).subscribe(() => {})
    for (let i = 0; i < 5; i++) await Promise.resolve()
    expect(sockets).toHaveLength(0)
    early.unsubscribe()
    await vi.waitFor(() => expect(sockets).toHaveLength(1))
    await settle()
    expect(sockets[0]!.subscribe).not.toHaveBeenCalled()

    // Kept: subscribed on the one socket, and stopped there.
    const kept = client.subscription(SaleUpdatesSubscription, { ids: ['2'] }).subscribe(() => {})
    await vi.waitFor(() => expect(sockets[0]!.subscribe).toHaveBeenCalledTimes(1))
    expect(sockets[0]!.subscribe.mock.calls[0]![0]).toMatchObject({ variables: { ids: ['2'] } })
    kept.unsubscribe()
    expect(sockets[0]!.stops).toBe(1)
    expect(sockets).toHaveLength(1)
  })
})
