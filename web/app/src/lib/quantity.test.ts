import { describe, expect, it } from 'vitest'
import { clampQuantity, orderTotal } from './quantity'

describe('clampQuantity', () => {
  it('keeps a quantity within 1 and the limit', () => {
    expect(clampQuantity(3, 10)).toBe(3)
    expect(clampQuantity(0, 10)).toBe(1)
    expect(clampQuantity(-4, 10)).toBe(1)
    expect(clampQuantity(11, 10)).toBe(10)
    expect(clampQuantity(2.7, 10)).toBe(2)
  })
  it('answers 1 for what is not a number, and for a limit below 1', () => {
    expect(clampQuantity(Number.NaN, 10)).toBe(1)
    expect(clampQuantity(Number('abc'), 5)).toBe(1)
    expect(clampQuantity(4, 0)).toBe(1)
  })
})

describe('orderTotal', () => {
  it('is the unit price times the quantity, in fen', () => {
    expect(orderTotal(4750, 3)).toBe(14250)
    expect(orderTotal(4750, 1)).toBe(4750)
  })
})
