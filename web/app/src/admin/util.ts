// Conversions between the API's values and the console's form fields.

/** yuan is a cents amount as the form shows it ("9.9"). */
export function yuan(cents: number): string {
  return (cents / 100).toFixed(cents % 100 === 0 ? 0 : 2)
}

/** cents reads a yuan amount typed in a form; null when it is not one. */
export function cents(v: string | number): number | null {
  const s = String(v).trim()
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return null
  return Math.round(Number(s) * 100)
}

const pad = (n: number) => String(n).padStart(2, '0')

/** localInput is an instant as a datetime-local field's value, in this device's zone. */
export function localInput(d: Date | string): string {
  const x = typeof d === 'string' ? new Date(d) : d
  return `${x.getFullYear()}-${pad(x.getMonth() + 1)}-${pad(x.getDate())}T${pad(x.getHours())}:${pad(x.getMinutes())}`
}

/** fromLocalInput reads a datetime-local field's value as an RFC 3339 instant; null when empty or invalid. */
export function fromLocalInput(v: string): string | null {
  if (!v) return null
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}

/** codeDigits is a voucher code as typed (the QR code's digits, maybe spaced); null when it is not one. */
export function codeDigits(v: string): string | null {
  const s = v.replace(/\s+/g, '')
  return /^\d{1,19}$/.test(s) ? s : null
}
