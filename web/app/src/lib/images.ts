import { ref } from 'vue'

// Which image URLs the app loads. Images under /images/ come from the
// server itself: uploads, and the demo pictures the server shows for the
// demo data's shop and post photos (which name Dianping/Meituan CDNs and
// /imgs/ paths of the original front end). Any other path shows a local
// placeholder, and images on other hosts load only after the user turns
// that on (Me page), so by default no request leaves the origin.
const KEY = 'hmdp.remoteImages'

function load(): boolean {
  try {
    return localStorage.getItem(KEY) === 'on'
  } catch {
    return false
  }
}

export const remoteImages = ref(load())

export function setRemoteImages(on: boolean): void {
  remoteImages.value = on
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off')
  } catch {
    /* ignore */
  }
}

/** loadable returns the URL to load for an image path, or null for a placeholder. */
export function loadable(src: string | null | undefined): string | null {
  if (!src) return null
  if (src.startsWith('/images/')) return src
  if (/^https?:\/\//i.test(src)) {
    try {
      if (new URL(src).origin === location.origin) return src
    } catch {
      return null
    }
    return remoteImages.value ? src.replace(/^http:/i, 'https:') : null
  }
  return null
}

/** The widths, in pixels, of the server's variants of every /images/ image (docs/API.md). */
export const VARIANT_WIDTHS = [240, 480, 960] as const

/**
 * srcsetOf is the srcset of the server's variants of url (WebP to browsers
 * that take it, by Accept), or null for an image on another host, which has
 * none.
 */
export function srcsetOf(url: string): string | null {
  if (!url.startsWith('/images/') || url.includes('?')) return null
  return VARIANT_WIDTHS.map((w) => `${url}?w=${w} ${w}w`).join(', ')
}
