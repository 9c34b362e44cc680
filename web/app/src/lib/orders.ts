import type { OrderStatus } from '../gql/graphql'
import { t, type MessageKey } from './i18n'

const rank: Record<OrderStatus, number> = {
  PENDING: 0, UNPAID: 1, PAID: 2, CANCELLED: 2, USED: 3, REFUNDING: 3, REFUNDED: 4, REJECTED: 1,
}

/** later reports whether status b comes after a (updates may overtake the mutation's answer). */
export function later(a: OrderStatus, b: OrderStatus): boolean {
  return rank[b] > rank[a]
}

export function statusText(s: OrderStatus): string {
  const key = ('order.status.' + s) as MessageKey
  return t(key)
}

/** voucherCode is the order's id in groups of four digits, as the shop reads it out (redeemOrder takes the id). */
export function voucherCode(id: string): string {
  return id.replace(/(\d{4})(?=\d)/g, '$1 ')
}
