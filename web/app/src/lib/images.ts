import { ref } from 'vue'

// Which image URLs the app loads. Uploaded images (/images/...) come from
// the server itself. The demo data also names images on other hosts (shop
// photos on Dianping/Meituan CDNs, which mostly refuse hot-linking) and paths
// of the original front end (/imgs/...) that this server does not serve:
// those show a local placeholder. Images on other hosts load only after the
// user turns that on (Me page), so by default no request leaves the origin.
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
