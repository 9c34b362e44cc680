// The quantity of a normal voucher's order (buyVoucher): 1 to the voucher's
// maxQuantity (its per-user limit, else the server's default), and what it
// costs. The server checks both again; these keep the stepper honest.

/** clampQuantity is n as a whole number within 1..max (1 for anything unreadable). */
export function clampQuantity(n: number, max: number): number {
  const top = Math.max(1, Math.floor(max))
  if (!Number.isFinite(n)) return 1
  return Math.min(top, Math.max(1, Math.floor(n)))
}

/** orderTotal is what quantity units cost, in fen: payValue × quantity, as payOrder charges. */
export function orderTotal(payValue: number, quantity: number): number {
  return payValue * quantity
}
