import { afterEach, describe, expect, it, vi } from 'vitest'
import { CombinedError } from '@urql/core'
import { errorText } from './errors'
import { setLocale } from './i18n'
import { STALE_HEADER, freshStart, isChunkLoadError, isUnreachable, loadFailure, stale, trackedFetch } from './network'
import { HomeDocument } from '../gql/graphql'
import { query } from './api'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  stale.value = false
  loadFailure.value = null
})

describe('network failures in words', () => {
  it('says offline when the browser knows it is, else that the server cannot be reached', () => {
    setLocale('en')
    const err = new CombinedError({ networkError: new TypeError('Failed to fetch') })
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
    expect(errorText(err)).toBe('You are offline. Check your connection.')
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true)
    expect(errorText(err)).toBe('Cannot reach the server. Check your connection.')
  })
  it('tells a chunk that did not load from other navigation errors', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/app/assets/A-1.js'))).toBe(true)
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true)
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false)
    expect(isUnreachable(new TypeError('Failed to fetch'))).toBe(true)
    expect(isUnreachable(new Error('Internal Server Error'))).toBe(false)
  })
})

describe('answers the service worker kept', () => {
  it('marks the page stale only for an answer served from its cache', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"data":{}}', { headers: { 'Content-Type': 'application/json' } }))
    await trackedFetch('/graphql')
    expect(stale.value).toBe(false)
    vi.stubGlobal('fetch', async () => new Response('{"data":{}}', { headers: { [STALE_HEADER]: '1' } }))
    await trackedFetch('/graphql')
    expect(stale.value).toBe(true)
  })
  it('forgets a kept answer or a failure of a request sent before a fresh start (Retry, back online, a new page)', async () => {
    let answer!: (r: Response) => void
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)))
    const late = trackedFetch('/graphql')
    freshStart() // back online: the page asks again
    answer(new Response('{"data":{}}', { headers: { [STALE_HEADER]: '1' } }))
    await late
    expect(stale.value).toBe(false)

    let fail!: (e: Error) => void
    vi.stubGlobal('fetch', () => new Promise<Response>((_, reject) => (fail = reject)))
    const sentOffline = query(HomeDocument, {})
    await vi.waitFor(() => expect(fail).toBeDefined())
    freshStart()
    fail(new TypeError('Failed to fetch'))
    await sentOffline
    expect(loadFailure.value).toBeNull()
    // Without a fresh start since, the failure is said.
    fail = undefined as unknown as (e: Error) => void
    const now = query(HomeDocument, {})
    await vi.waitFor(() => expect(fail).toBeDefined())
    fail(new TypeError('Failed to fetch'))
    await now
    expect(loadFailure.value?.kind).toBe('data')
  })
})
