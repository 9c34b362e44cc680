import { describe, expect, it, beforeEach, vi } from 'vitest'
import { nextTick } from 'vue'
import { CombinedError } from '@urql/core'
import { GraphQLError } from 'graphql'
import { apiError, describe as describeError, errorText, type ErrorCode } from './errors'
import { loadable, setRemoteImages } from './images'
import { setLocale, t, formatMoney, formatDistance } from './i18n'
import { later, newerFirst, newerState, statusText } from './orders'
import { placed } from './paged'
import { countdown, askWhile } from './clock'
import { en, zh } from './messages'

function gqlError(message: string, extensions: { code: ErrorCode; [key: string]: unknown }) {
  return new CombinedError({ graphQLErrors: [new GraphQLError(message, { extensions })] })
}

beforeEach(() => setLocale('en'))

describe('errors in words', () => {
  it('says how long to wait when rate limited', () => {
    expect(errorText(gqlError('too many', { code: 'RATE_LIMITED', retryAfterMs: 41_200 }))).toBe('Too many tries. Please wait 42 s.')
  })
  it('tells a wrong code from an expired one', () => {
    expect(errorText(gqlError('code: wrong code', { code: 'BAD_USER_INPUT', field: 'code' }))).toBe('Wrong code.')
    expect(errorText(gqlError('code: no valid code for this phone', { code: 'BAD_USER_INPUT', field: 'code' }))).toBe(
      'This code expired or was used: send a new one.',
    )
  })
  it('names the flash-sale outcomes', () => {
    const outcomes: [ErrorCode, string][] = [
      ['OUT_OF_STOCK', 'Sold out.'],
      ['ALREADY_ORDERED', 'You already have an order for this voucher (one per customer).'],
      ['SALE_NOT_STARTED', 'The sale has not started yet.'],
      ['SALE_ENDED', 'The sale has ended.'],
      ['UNAVAILABLE', 'The server could not confirm your attempt in time. Check My orders before trying again.'],
    ]
    for (const [code, text] of outcomes) {
      expect(errorText(gqlError('x', { code }))).toBe(text)
    }
  })
  it('keeps the field of other bad input', () => {
    const e = apiError(gqlError('input.title: must not be empty', { code: 'BAD_USER_INPUT', field: 'input.title' }))
    expect(e).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.title' })
    expect(describeError(e)).toBe('Invalid input.title: input.title: must not be empty')
  })
  it('says what confirms a new password (updateProfile)', () => {
    const bad = (field: string, message: string) => errorText(gqlError(message, { code: 'BAD_USER_INPUT', field }))
    expect(bad('input.code', 'setting the first password needs a login code sent to the user\'s phone with sendCode')).toBe(
      'Send a code to your phone and enter it here.',
    )
    expect(bad('input.code', 'wrong code')).toBe('Wrong code.')
    expect(bad('input.code', 'must be the 6 digits sent to the phone')).toBe('Enter the 6 digits of the code.')
    expect(bad('input.code', 'no valid code for this phone: it expired, was used or was voided; send a new one')).toBe(
      'This code expired, was used or was not sent to the phone of this account: send a new one.',
    )
    expect(bad('input.currentPassword', 'wrong password')).toBe('Wrong current password.')
    expect(bad('input.currentPassword', 'changing a password needs the current one (or input.code, a login code sent with sendCode)')).toBe(
      'Enter a code sent to your phone, or your current password.',
    )
    expect(bad('input.password', 'must be 8 to 72 bytes')).toBe('A password must be 8 to 72 bytes long (a letter or digit is 1 byte, a Chinese character 3).')
  })
  it('reports network trouble', () => {
    expect(errorText(new CombinedError({ networkError: new Error('Failed to fetch') }))).toBe('Cannot reach the server. Check your connection.')
  })
  it('is empty without an error', () => {
    expect(errorText(undefined)).toBe('')
  })
})

describe('images', () => {
  it('loads uploads and same-origin images only, unless other sites are allowed', () => {
    setRemoteImages(false)
    expect(loadable('/images/0123456789abcdef0123456789abcdef.png')).toBe('/images/0123456789abcdef0123456789abcdef.png')
    expect(loadable('/imgs/blogs/blog1.jpg')).toBeNull()
    expect(loadable('https://p0.meituan.net/x.jpg')).toBeNull()
    expect(loadable('')).toBeNull()
    expect(loadable(null)).toBeNull()
    expect(loadable(location.origin + '/images/a.png')).toBe(location.origin + '/images/a.png')
    setRemoteImages(true)
    expect(loadable('http://p0.meituan.net/x.jpg')).toBe('https://p0.meituan.net/x.jpg')
    setRemoteImages(false)
  })
})

describe('i18n', () => {
  it('has every English key in Chinese', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort())
  })
  it('fills placeholders and English plurals', async () => {
    expect(t('user.followers', { n: 1 })).toBe('1 follower')
    expect(t('user.followers', { n: 2 })).toBe('2 followers')
    expect(t('login.resendIn', { s: 9 })).toBe('Resend in 9 s')
    setLocale('zh')
    expect(t('user.followers', { n: 1 })).toBe('粉丝 1')
    await nextTick()
    expect(document.documentElement.lang).toBe('zh-CN')
  })
  it('formats money in cents and distances in metres', () => {
    expect(formatMoney(8000)).toBe('¥80')
    expect(formatMoney(4750)).toBe('¥47.50')
    expect(formatDistance(445.2)).toBe('445 m')
    expect(formatDistance(1234)).toBe('1.2 km')
    expect(formatDistance(null)).toBe('')
  })
})

describe('orders', () => {
  it('never moves a status back', () => {
    expect(later('PENDING', 'UNPAID')).toBe(true)
    expect(later('UNPAID', 'PENDING')).toBe(false)
    expect(later('UNPAID', 'PAID')).toBe(true)
    expect(later('PAID', 'UNPAID')).toBe(false)
    expect(statusText('CANCELLED')).toBe('Cancelled')
  })
  it('places an event’s order where the API lists it, newest first, keeping the later state', () => {
    type O = { id: string; status: 'UNPAID' | 'PAID' }
    const list: O[] = [{ id: '9007199254740995', status: 'UNPAID' }, { id: '9007199254740993', status: 'UNPAID' }]
    // Beyond 2^53 the ids differ only past a JS number's precision.
    const mid = placed<O>(list, { id: '9007199254740994', status: 'UNPAID' }, newerFirst, newerState)
    expect(mid.map((o) => o.id)).toEqual(['9007199254740995', '9007199254740994', '9007199254740993'])
    expect(placed<O>([], list[1]!, newerFirst).map((o) => o.id)).toEqual(['9007199254740993'])
    expect(placed<O>(list, { id: '1', status: 'PAID' }, newerFirst).map((o) => o.id)).toEqual(['9007199254740995', '9007199254740993', '1'])
    const paid = placed<O>(list, { id: '9007199254740993', status: 'PAID' }, newerFirst, newerState)
    const late: O = { id: '9007199254740993', status: 'UNPAID' }
    expect(placed<O>(paid, late, newerFirst, newerState)[1]).toEqual({ id: '9007199254740993', status: 'PAID' })
  })
  it('counts down', () => {
    expect(countdown(3_599_000)).toBe('00:59:59')
    expect(countdown(90_061_000)).toBe('1d 01:01:01')
    expect(countdown(-5)).toBe('00:00:00')
  })
  it('asks while a state holds, backing off, and not after it ends or is stopped', async () => {
    vi.useFakeTimers()
    try {
      const asked: number[] = []
      let pending = true
      const start = Date.now()
      askWhile(() => pending, async () => {
        asked.push(Date.now() - start)
        if (asked.length === 3) pending = false
      }, 1_000, 3_000)
      await vi.advanceTimersByTimeAsync(60_000)
      expect(asked).toEqual([1_000, 3_000, 6_000]) // 1 s, then 2, then 3 (the cap)
      const stopped: number[] = []
      const stop = askWhile(() => true, async () => void stopped.push(Date.now()), 1_000)
      await vi.advanceTimersByTimeAsync(1_500)
      stop()
      await vi.advanceTimersByTimeAsync(60_000)
      expect(stopped).toHaveLength(1)
      let never = 0
      askWhile(() => false, async () => void never++)
      await vi.advanceTimersByTimeAsync(60_000)
      expect(never).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('the server’s day', async () => {
  const { parseDay, shift, addMonths, daysInMonth, mondayFirst, dateKey } = await import('./serverDay')
  it('reads the server’s today (SignInStatus.today)', () => {
    expect(parseDay('2026-11-26')).toEqual({ y: 2026, m: 11, d: 26 })
    expect(parseDay('2024-02-29')).toEqual({ y: 2024, m: 2, d: 29 })
    expect(parseDay('2026-02-29')).toBeNull()
    expect(parseDay('2026-13-01')).toBeNull()
    expect(parseDay('26-11-2026')).toBeNull()
    expect(parseDay('')).toBeNull()
  })
  it('counts days and months without the device’s zone', () => {
    expect(shift({ y: 2024, m: 3, d: 1 }, -1)).toEqual({ y: 2024, m: 2, d: 29 })
    expect(addMonths(2026, 1, -1)).toEqual({ y: 2025, m: 12 })
    expect(daysInMonth(2026, 2)).toBe(28)
    expect(mondayFirst(2026, 11)).toBe(6) // 2026-11-01 is a Sunday
    expect(dateKey({ y: 2026, m: 3, d: 5 })).toBe('2026-03-05')
  })
})
