// npm run size: gzipped bytes of the JavaScript and CSS a first visit needs,
// for each page Lighthouse is measured on (docs/BENCHMARKS.md "Lighthouse"):
// the entry and its static imports, and the page's route chunk with its
// static imports. Fails above the budgets: the entry chunk alone (what every
// page parses before it can start) and each first visit's JavaScript; when
// the websocket client (graphql-ws, loaded with the first subscription) is
// part of a first visit; and when the build does not list the page's files
// for the server to preload with the entry (.vite/preload.json, see
// vite.config.ts "route-preloads").
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { resolve } from 'node:path'

const dist = resolve(import.meta.dirname, '../dist')
const manifest = JSON.parse(readFileSync(resolve(dist, '.vite/manifest.json'), 'utf8'))
const KB = 1024
const ENTRY_BUDGET = 50 * KB
const PAGE_BUDGET = 85 * KB
// Each page, by the name of its route (src/routes.json) and its component.
const pages = {
  Home: ['home', 'src/pages/HomePage.vue'],
  Shop: ['shop', 'src/pages/ShopPage.vue'],
  'Type list': ['shops', 'src/pages/ShopListPage.vue'],
}
const preload = JSON.parse(readFileSync(resolve(dist, '.vite/preload.json'), 'utf8'))

const gz = (f) => gzipSync(readFileSync(resolve(dist, f)), { level: 9 }).length
const kb = (n) => `${(n / KB).toFixed(1)} KB`

function files(...keys) {
  const out = new Set()
  const walk = (key) => {
    const c = manifest[key]
    if (!c) throw new Error(`${key}: not in the build's manifest`)
    if (out.has(c.file)) return
    out.add(c.file)
    for (const css of c.css ?? []) out.add(css)
    for (const imp of c.imports ?? []) walk(imp)
  }
  keys.forEach(walk)
  return [...out].sort()
}

let failed = false
function fail(msg) {
  console.error(msg)
  failed = true
}

const entry = gz(manifest['index.html'].file)
console.log(`entry chunk: ${kb(entry)} gzipped (budget ${kb(ENTRY_BUDGET)})`)
if (entry > ENTRY_BUDGET) fail('entry chunk over budget')

for (const [name, [route, key]] of Object.entries(pages)) {
  if (!preload[route]?.includes(manifest[key].file)) fail(`${name}: .vite/preload.json does not preload ${manifest[key].file} for route ${route}`)
  let js = 0
  let css = 0
  console.log(`\n${name} (${key}):`)
  for (const f of files('index.html', key)) {
    const n = gz(f)
    if (f.endsWith('.js')) {
      js += n
      if (readFileSync(resolve(dist, f), 'utf8').includes('graphql-transport-ws')) fail(`${name}: ${f} holds the websocket client (graphql-ws)`)
    } else css += n
    console.log(`${kb(n).padStart(9)}  ${f}`)
  }
  console.log(`first visit: ${kb(js)} JavaScript + ${kb(css)} CSS gzipped (budget ${kb(PAGE_BUDGET)} JavaScript)`)
  if (js > PAGE_BUDGET) fail(`${name}: over budget`)
}
if (failed) process.exit(1)
