import { ref, watchEffect, onBeforeUnmount, nextTick } from 'vue'
import type { Router } from 'vue-router'
import { t, type MessageKey } from './i18n'

// Each page names itself in document.title ("103茶餐厅 · hmdp"): the route's
// meta.title (a message key) at once, then the page's own name (a shop's,
// a post's) once it has loaded (usePageTitle).

const routeKey = ref<MessageKey | null>(null)
const own = ref('')
let owner = 0

watchEffect(() => {
  const name = own.value || (routeKey.value ? t(routeKey.value) : '')
  document.title = name ? `${name} · ${t('app.name')}` : t('app.name')
})

/** usePageTitle: the page's title follows name() (empty: the route's) while the page lives. */
export function usePageTitle(name: () => string): void {
  const me = ++owner
  watchEffect(() => {
    if (owner === me) own.value = name()
  })
  onBeforeUnmount(() => {
    if (owner === me) own.value = ''
  })
}

/**
 * After each navigation (not the first page load), focus moves to the new
 * page's main heading, so keyboard and screen reader users start there
 * instead of on <body>; unless they are already inside the new page.
 */
function focusHeading(): void {
  const end = Date.now() + 3000
  const tryFocus = () => {
    const main = document.getElementById('main')
    const a = document.activeElement
    if (main && a && a !== document.body && main.contains(a) && a.isConnected) return // already in the page
    const h = main?.querySelector('h1')
    if (h) {
      if (!h.hasAttribute('tabindex')) h.setAttribute('tabindex', '-1')
      h.focus({ preventScroll: true })
      return
    }
    if (Date.now() < end) window.setTimeout(tryFocus, 50)
  }
  void nextTick(tryFocus)
}

export function installTitles(router: Router): void {
  router.afterEach((to, from, failure) => {
    if (failure) return
    routeKey.value = (to.meta.title as MessageKey | undefined) ?? null
    if (from.matched.length) focusHeading()
  })
}
