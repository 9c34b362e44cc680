import type { OrderStatus } from '../gql/graphql'
import { t, type MessageKey } from './i18n'

const rank: Record<OrderStatus, number> = {
  PENDING: 0, UNPAID: 1, PAID: 2, CANCELLED: 2, USED: 3, REFUNDING: 3, REFUNDED: 4, REJECTED: 1,
}

/** later reports whether status b comes after a (updates may overtake the mutation's answer). */
export function later(a: OrderStatus, b: OrderStatus): boolean {
  return rank[b] > rank[a]
}

/**
 * newerFirst is the API's order of a buyer's orders: newest (largest id)
 * first. Ids are 64-bit, beyond a JS number's exact range.
 */
export function newerFirst(a: { id: string }, b: { id: string }): boolean {
  return BigInt(a.id) > BigInt(b.id)
}

/** newerState keeps the later of two states of one order (events can overtake answers). */
export function newerState<O extends { status: OrderStatus }>(cur: O, o: O): O {
  return later(o.status, cur.status) ? cur : o
}

export function statusText(s: OrderStatus): string {
  const key = ('order.status.' + s) as MessageKey
  return t(key)
}

/** voucherCode is the order's id in groups of four digits, as the shop reads it out (redeemOrder takes the id). */
export function voucherCode(id: string): string {
  return id.replace(/(\d{4})(?=\d)/g, '$1 ')
}
