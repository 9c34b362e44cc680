import { ref, watchEffect } from 'vue'
import { en, zh, type Messages } from './messages'

export type Locale = 'en' | 'zh'
const KEY = 'hmdp.locale'

function initial(): Locale {
  try {
    const saved = localStorage.getItem(KEY)
    if (saved === 'en' || saved === 'zh') return saved
  } catch {
    /* ignore */
  }
  const langs = navigator.languages?.length ? navigator.languages : [navigator.language]
  return langs.some((l) => l?.toLowerCase().startsWith('zh')) && !langs[0]?.toLowerCase().startsWith('en') ? 'zh' : 'en'
}

export const locale = ref<Locale>(initial())
const tables: Record<Locale, Messages> = { en, zh }

watchEffect(() => {
  document.documentElement.lang = locale.value === 'zh' ? 'zh-CN' : 'en'
})

export function setLocale(l: Locale): void {
  locale.value = l
  try {
    localStorage.setItem(KEY, l)
  } catch {
    /* ignore */
  }
}

export type MessageKey = keyof Messages

/** t looks a message up in the current language and fills {name} placeholders. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const msg: string = tables[locale.value][key] ?? en[key] ?? key
  if (!params) return msg
  // English plurals: {s} is "s" unless n is 1.
  if (typeof params.n === 'number' && !('s' in params)) params = { ...params, s: params.n === 1 ? '' : 's' }
  return msg.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m))
}

export function formatMoney(cents: number): string {
  return '¥' + (cents / 100).toFixed(cents % 100 === 0 ? 0 : 2)
}

export function formatDistance(m: number | null | undefined): string {
  if (m == null) return ''
  return m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(1)} km`
}

export function formatTime(iso: string): string {
  const d = new Date(iso)
  return d.toLocaleString(locale.value === 'zh' ? 'zh-CN' : 'en-GB', {
    year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit',
  })
}
