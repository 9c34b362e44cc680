// The app's service worker, scope /app/ (web/app/README.md "Offline and
// install"). vite.config.ts (plugin "service-worker") writes it to dist/sw.js
// after the build with PRECACHE (every file of the build) and VERSION (a hash
// of them) filled in. Hand-written rather than Workbox: the one thing beyond
// precaching it must do, keeping anonymous GraphQL POST answers keyed on the
// request body, needs custom code in Workbox too.
//
// What it does:
// - install: caches the app shell (/app/) and every chunk, icon and the
//   manifest of this build; a new build replaces the old caches at activate.
// - /app/ pages: the network first, the cached shell when it fails (the
//   router then shows the page, or the not-found page).
// - /app/ files: the precache first (names under assets/ carry their hash).
// - POST /graphql without an Authorization header, a JSON query (never a
//   mutation or subscription): the network first; an answer without errors
//   is kept, keyed on a SHA-256 of the body; when the network fails the kept
//   answer is served with the header X-HMDP-Offline (the app shows "data may
//   not be up to date"). GET /graphql without Authorization likewise, keyed
//   on its URL. Anything with a token, mutations (login, sendCode, payments),
//   uploads (multipart) and websockets (a service worker never sees them)
//   pass untouched, and pages outside /app/ (the playground at /) are not
//   controlled at all.
// - GET /images/{name}: the network first, the kept copy when it fails.
// Kept answers and images are capped (MAX_ENTRIES each, oldest dropped).

/* global self, caches, fetch, Response, Request, Headers, URL, TextEncoder, crypto */
const PRECACHE = self.__HMDP_PRECACHE__
const VERSION = self.__HMDP_VERSION__
const SHELL = 'hmdp-shell-' + VERSION
const DATA = 'hmdp-data-v1'
const IMAGES = 'hmdp-images-v1'
const MAX_ENTRIES = 300
const STALE_HEADER = 'X-HMDP-Offline'
const BASE = new URL('./', self.location.href).pathname // "/app/"

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((c) => c.addAll(PRECACHE.map((p) => BASE + (p === 'index.html' ? '' : p))))
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('hmdp-shell-') && n !== SHELL).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  )
})

self.addEventListener('fetch', (event) => {
  const req = event.request
  const url = new URL(req.url)
  if (url.origin !== self.location.origin) return
  if (url.pathname === '/graphql') {
    if (req.headers.has('Authorization')) return
    if (req.method === 'POST' && (req.headers.get('Content-Type') || '').startsWith('application/json')) {
      event.respondWith(graphqlPost(event, req))
    } else if (req.method === 'GET' && url.searchParams.has('query') && isQuery(url.searchParams.get('query'))) {
      event.respondWith(networkElseKept(event, DATA, req.url, isCleanAnswer))
    }
    return
  }
  if (req.method !== 'GET') return
  if (url.pathname.startsWith('/images/')) {
    event.respondWith(networkElseKept(event, IMAGES, req.url, async (r) => r.status === 200))
    return
  }
  if (!url.pathname.startsWith(BASE)) return
  if (req.mode === 'navigate') {
    event.respondWith(fetch(req).catch(() => caches.match(BASE, { cacheName: SHELL }).then((r) => r || Response.error())))
    return
  }
  event.respondWith(caches.match(req, { cacheName: SHELL }).then((r) => r || fetch(req)))
})

// isQuery: the document's first operation is a query (or the shorthand {…})
// and it has no mutation or subscription anywhere.
function isQuery(doc) {
  if (typeof doc !== 'string') return false
  const text = doc.replace(/#[^\n]*/g, '')
  return /^\s*(query\b|\{)/.test(text) && !/(^|\})\s*(mutation|subscription)\b/.test(text)
}

async function graphqlPost(event, req) {
  const body = await req.clone().text()
  let op = null
  try {
    op = JSON.parse(body)
  } catch {
    // not JSON: the server answers it
  }
  if (!op || Array.isArray(op) || !isQuery(op.query)) return fetch(req)
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body))
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
  return networkElseKept(event, DATA, self.location.origin + '/graphql?sw-post=' + hex, isCleanAnswer)
}

async function isCleanAnswer(r) {
  if (r.status !== 200 || !(r.headers.get('Content-Type') || '').includes('json')) return false
  try {
    const j = await r.json()
    return j && typeof j === 'object' && j.data && !j.errors
  } catch {
    return false
  }
}

// networkElseKept answers from the network, keeping a copy when keep says
// so; when the network fails, the kept copy marked STALE_HEADER, else the
// failure itself.
async function networkElseKept(event, cacheName, key, keep) {
  let r
  try {
    r = await fetch(event.request)
  } catch (err) {
    const kept = await caches.match(key, { cacheName })
    if (!kept) throw err
    const h = new Headers(kept.headers)
    h.set(STALE_HEADER, '1')
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers: h })
  }
  const copy = r.clone()
  event.waitUntil(
    keep(r.clone())
      .then((ok) => (ok ? put(cacheName, key, copy) : undefined))
      .catch(() => {}), // a full disk: nothing kept, the answer still goes out
  )
  return r
}

async function put(cacheName, key, r) {
  const c = await caches.open(cacheName)
  await c.delete(key) // re-added last: the oldest entry is the least recently fetched
  await c.put(key, r)
  const keys = await c.keys()
  for (let i = 0; i < keys.length - MAX_ENTRIES; i++) await c.delete(keys[i])
}
