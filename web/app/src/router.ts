import { createRouter, createWebHistory, type RouteLocationNormalized, type RouteRecordRaw } from 'vue-router'
import { loggedIn } from './lib/auth'
import { failure, freshStart, isChunkLoadError, loadFailure } from './lib/network'
import { yieldToMain } from './lib/tasks'
import { installTitles } from './lib/title'
// The path of every route, by name: the server reads the same file
// (webapp.go) to answer any other /app/ path with HTTP 404.
import paths from './routes.json'

// Every page is its own chunk (route-level code splitting); Home is the
// first page, so its chunk is the only one the first visit needs.
const routes: RouteRecordRaw[] = [
  { path: paths.home, name: 'home', meta: { title: 'nav.home' }, component: () => import('./pages/HomePage.vue') },
  { path: paths.search, name: 'search', meta: { title: 'search.title', back: true }, component: () => import('./pages/SearchPage.vue') },
  { path: paths.shops, name: 'shops', meta: { title: 'shops.title', back: true }, component: () => import('./pages/ShopListPage.vue'), props: true },
  { path: paths.shop, name: 'shop', meta: { title: 'title.shop', back: true }, component: () => import('./pages/ShopPage.vue'), props: true },
  { path: paths.blog, name: 'blog', meta: { title: 'title.blog', back: true }, component: () => import('./pages/BlogPage.vue'), props: true },
  { path: paths.write, name: 'write', component: () => import('./pages/WritePage.vue'), meta: { login: true, title: 'write.title' } },
  { path: paths.feed, name: 'feed', component: () => import('./pages/FeedPage.vue'), meta: { login: true, title: 'feed.title' } },
  { path: paths.me, name: 'me', component: () => import('./pages/MePage.vue'), meta: { login: true, title: 'me.title' } },
  { path: paths.user, name: 'user', meta: { title: 'title.user', back: true }, component: () => import('./pages/UserPage.vue'), props: true },
  // The operator console (admins; every operator field is checked on the server).
  { path: paths.operator, name: 'operator', component: () => import('./admin/OperatorPage.vue'), meta: { login: true, title: 'operator.title' } },
  { path: paths.login, name: 'login', meta: { title: 'login.title' }, component: () => import('./pages/LoginPage.vue') },
  { path: '/:rest(.*)*', name: 'notfound', meta: { title: 'notFound.title' }, component: () => import('./pages/NotFoundPage.vue') },
]

export const router = createRouter({
  history: createWebHistory('/app/'),
  routes,
  scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
})

// notFound shows the not-found page at the URL asked for.
function notFound(to: RouteLocationNormalized) {
  return { name: 'notfound', params: { rest: to.path.slice(1).split('/') }, query: to.query, hash: to.hash }
}

// A shop type that does not exist is not a page. The type list is the
// Home page's query (same request, so also kept for offline use); without
// an answer (offline) the page itself says what went wrong. It is asked
// while the page's chunk loads (beforeEach starts it, beforeResolve waits
// for it), not before.
const typeChecks = new WeakMap<RouteLocationNormalized, Promise<boolean>>()
async function typeExists(id: string): Promise<boolean> {
  const [{ query }, { HomeQuery }] = await Promise.all([import('./lib/api'), import('./lib/ops')])
  const r = await query(HomeQuery, {})
  return !r.data || r.data.shopTypes.some((ty) => ty.id === id)
}

router.beforeEach((to) => {
  if (to.meta.login && !loggedIn.value) {
    return { name: 'login', query: { redirect: to.fullPath } }
  }
  if (to.name === 'shops') {
    const check = typeExists(String(to.params.id))
    check.catch(() => {}) // a navigation that ends before beforeResolve leaves it unread
    typeChecks.set(to, check)
  }
  return true
})

// The page's chunk has just been evaluated (vue-router loads it between
// beforeEach and beforeResolve): the page is rendered in a task of its own
// (lib/tasks.ts).
router.beforeResolve(async (to) => {
  const check = typeChecks.get(to)
  if (check && !(await check)) return notFound(to)
  await yieldToMain()
  return true
})

// A new page starts without the old one's offline notes.
router.afterEach((_to, _from, failure) => {
  if (failure) return
  freshStart()
})

// A route's chunk that does not load (offline, or the server unreachable):
// the navigation did not happen; App.vue says so and offers Retry.
// Any other error is logged as vue-router does without a handler.
router.onError((e, to) => {
  if (isChunkLoadError(e)) loadFailure.value = failure('page', to.fullPath)
  else console.error(e)
})

installTitles(router)
