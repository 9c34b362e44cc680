// npm run size: gzipped bytes of the JavaScript and CSS the first page (Home)
// needs: the entry, its static imports, and the Home route chunk with its
// static imports. Fails above the budget (150 KB of JavaScript).
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { resolve } from 'node:path'

const dist = resolve(import.meta.dirname, '../dist')
const manifest = JSON.parse(readFileSync(resolve(dist, '.vite/manifest.json'), 'utf8'))
const BUDGET = 150 * 1024

const files = new Set()
function walk(key) {
  const c = manifest[key]
  if (!c || files.has(c.file)) return
  files.add(c.file)
  for (const css of c.css ?? []) files.add(css)
  for (const imp of c.imports ?? []) walk(imp)
}
walk('index.html')
walk('src/pages/HomePage.vue')

let js = 0
let css = 0
for (const f of [...files].sort()) {
  const gz = gzipSync(readFileSync(resolve(dist, f)), { level: 9 }).length
  if (f.endsWith('.js')) js += gz
  else css += gz
  console.log(`${(gz / 1024).toFixed(1).padStart(7)} KB  ${f}`)
}
console.log(`first page: ${(js / 1024).toFixed(1)} KB JavaScript + ${(css / 1024).toFixed(1)} KB CSS gzipped (budget ${BUDGET / 1024} KB JavaScript)`)
if (js > BUDGET) {
  console.error('over budget')
  process.exit(1)
}
