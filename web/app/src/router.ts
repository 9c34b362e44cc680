import { createRouter, createWebHistory, type RouteRecordRaw } from 'vue-router'
import { loggedIn } from './lib/auth'

// Every page is its own chunk (route-level code splitting); Home is the
// first page, so its chunk is the only one the first visit needs.
const routes: RouteRecordRaw[] = [
  { path: '/', name: 'home', component: () => import('./pages/HomePage.vue') },
  { path: '/search', name: 'search', component: () => import('./pages/SearchPage.vue') },
  { path: '/types/:id', name: 'shops', component: () => import('./pages/ShopListPage.vue'), props: true },
  { path: '/shops/:id', name: 'shop', component: () => import('./pages/ShopPage.vue'), props: true },
  { path: '/blogs/:id', name: 'blog', component: () => import('./pages/BlogPage.vue'), props: true },
  { path: '/write', name: 'write', component: () => import('./pages/WritePage.vue'), meta: { login: true } },
  { path: '/feed', name: 'feed', component: () => import('./pages/FeedPage.vue'), meta: { login: true } },
  { path: '/me', name: 'me', component: () => import('./pages/MePage.vue'), meta: { login: true } },
  { path: '/users/:id', name: 'user', component: () => import('./pages/UserPage.vue'), props: true },
  { path: '/login', name: 'login', component: () => import('./pages/LoginPage.vue') },
  { path: '/:rest(.*)*', name: 'notfound', component: () => import('./pages/NotFoundPage.vue') },
]

export const router = createRouter({
  history: createWebHistory('/app/'),
  routes,
  scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
})

router.beforeEach((to) => {
  if (to.meta.login && !loggedIn.value) {
    return { name: 'login', query: { redirect: to.fullPath } }
  }
  return true
})
