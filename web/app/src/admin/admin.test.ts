import { describe, expect, it, beforeEach } from 'vitest'
import { setLocale } from '../lib/i18n'
import { cents, yuan, localInput, fromLocalInput, codeDigits } from './util'
import { en, zh, t } from './messages'

beforeEach(() => setLocale('en'))

describe('operator console forms', () => {
  it('reads yuan as cents and back', () => {
    expect(cents('9.9')).toBe(990)
    expect(cents(' 20 ')).toBe(2000)
    expect(cents('0.01')).toBe(1)
    expect(cents('1.234')).toBeNull()
    expect(cents('-1')).toBeNull()
    expect(cents('')).toBeNull()
    expect(yuan(990)).toBe('9.90')
    expect(yuan(2000)).toBe('20')
  })
  it('round-trips a datetime-local value in the device zone', () => {
    const d = new Date(2030, 4, 6, 7, 8)
    expect(localInput(d)).toBe('2030-05-06T07:08')
    expect(fromLocalInput('2030-05-06T07:08')).toBe(d.toISOString())
    expect(fromLocalInput('')).toBeNull()
    expect(fromLocalInput('not a date')).toBeNull()
  })
  it('reads a voucher code as read out, spaces and all', () => {
    expect(codeDigits('6633 9522 8291 4324 49')).toBe('663395228291432449')
    expect(codeDigits(' 12 ')).toBe('12')
    expect(codeDigits('12a')).toBeNull()
    expect(codeDigits('')).toBeNull()
  })
})

describe('operator console words', () => {
  it('has every message in both languages, with the same placeholders', () => {
    for (const k of Object.keys(en) as (keyof typeof en)[]) {
      expect(zh[k], k).toBeTruthy()
      const ph = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
      expect(ph(zh[k]), k).toEqual(ph(en[k]))
    }
  })
  it('follows the app language', () => {
    expect(t('op.stockLeft', { n: 4 })).toBe('4 left')
    setLocale('zh')
    expect(t('op.stockLeft', { n: 4 })).toBe('剩余 4')
  })
})
