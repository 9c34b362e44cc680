import { createApp } from 'vue'
import App from './App.vue'
import { router } from './router'
import { yieldToMain } from './lib/tasks'
import './style.css'

// Installing the router starts loading the first page's chunk; the app is
// mounted in a task of its own, so that neither half is one long task on a
// slow phone (Lighthouse's Total Blocking Time).
const app = createApp(App).use(router)
void yieldToMain().then(() => app.mount('#app'))

// The service worker (src/sw.js, built to /app/sw.js) makes the app
// installable and shows what it has shown before when offline. Not in the
// dev server: it would keep serving old modules. Registered once the page
// has loaded and the browser is idle: installing it fetches every file of
// the build, which must not compete with the first page's data and photos.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    const register = () =>
      navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' }).catch((e: unknown) => {
        // Blocked (private mode, a browser setting): the app works online as before.
        console.warn('service worker not registered:', e)
      })
    if ('requestIdleCallback' in window) requestIdleCallback(() => void register(), { timeout: 3000 })
    else setTimeout(() => void register(), 1000)
  })
}
