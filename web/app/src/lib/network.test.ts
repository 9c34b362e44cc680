import { afterEach, describe, expect, it, vi } from 'vitest'
import { CombinedError } from '@urql/core'
import { errorText } from './errors'
import { setLocale } from './i18n'
import { STALE_HEADER, isChunkLoadError, isUnreachable, stale, trackedFetch } from './network'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  stale.value = false
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
})
