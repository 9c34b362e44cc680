// Where distances are measured from. The demo shops are in Hangzhou
// (Gongshu district, around 120.15 E 30.32 N): without the viewer's position
// (not granted, not available, or too far from every shop) the app measures
// from there.
export const DEMO_POINT = { x: 120.149192, y: 30.316078 }
export const RADIUS = 50_000

export interface Point {
  x: number
  y: number
}

/** granted reports whether the page may read the position without prompting. */
export async function granted(): Promise<boolean> {
  try {
    const p = await navigator.permissions.query({ name: 'geolocation' })
    return p.state === 'granted'
  } catch {
    return false
  }
}

export function position(timeoutMs = 8000): Promise<Point | null> {
  return new Promise((resolve) => {
    if (!('geolocation' in navigator)) return resolve(null)
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ x: p.coords.longitude, y: p.coords.latitude }),
      () => resolve(null),
      { enableHighAccuracy: false, timeout: timeoutMs, maximumAge: 600_000 },
    )
  })
}
