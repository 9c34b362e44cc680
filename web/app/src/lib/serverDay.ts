// The server's "today" (its HMDP_TIME_ZONE, not the device's clock or zone).
//
// SignInStatus.today is the server's date (YYYY-MM-DD). Dates here are plain
// year/month/day numbers, never Date objects in the device's zone.

export interface Day {
  y: number
  /** 1 to 12 */
  m: number
  d: number
}

/** shift moves a day by n days (calendar arithmetic in UTC, whatever the device's zone). */
export function shift(day: Day, n: number): Day {
  const t = new Date(Date.UTC(day.y, day.m - 1, day.d + n))
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() }
}

/** addMonths moves the first of a month by n months. */
export function addMonths(y: number, m: number, n: number): { y: number; m: number } {
  const t = new Date(Date.UTC(y, m - 1 + n, 1))
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1 }
}

const p2 = (n: number) => String(n).padStart(2, '0')
export const monthKey = (y: number, m: number): string => `${y}-${p2(m)}`
export const dateKey = (d: Day): string => `${monthKey(d.y, d.m)}-${p2(d.d)}`

/** daysInMonth of month m (1 to 12). */
export const daysInMonth = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate()

/** mondayFirst is the column (0 = Monday) of the first of the month. */
export const mondayFirst = (y: number, m: number): number => (new Date(Date.UTC(y, m - 1, 1)).getUTCDay() + 6) % 7

/** parseDay reads a YYYY-MM-DD date (SignInStatus.today); null when it is not one. */
export function parseDay(s: string): Day | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!m) return null
  const day = { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) }
  return day.m >= 1 && day.m <= 12 && day.d >= 1 && day.d <= daysInMonth(day.y, day.m) ? day : null
}
