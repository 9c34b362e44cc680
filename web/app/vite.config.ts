import { defineConfig, type Plugin } from 'vite'
import vue from '@vitejs/plugin-vue'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'

// dist/README.md is committed (so the Go embed compiles without a build):
// put it back after Vite empties dist.
function keepDistReadme(): Plugin {
  const file = resolve(import.meta.dirname, 'dist/README.md')
  let text: string | null = null
  return {
    name: 'keep-dist-readme',
    apply: 'build',
    buildStart() {
      if (existsSync(file)) text = readFileSync(file, 'utf8')
    },
    closeBundle() {
      if (text !== null) writeFileSync(file, text)
    },
  }
}

// src/sw.js becomes dist/sw.js with the list of the build's files to
// precache and a version (a hash of their contents: a new build, a new
// service worker). Written after the build, so the files Vite copies from
// public/ are listed too. The dev server has no service worker (main.ts
// registers it in production builds only).
function serviceWorker(): Plugin {
  const dist = resolve(import.meta.dirname, 'dist')
  const skip = (rel: string) => rel === 'README.md' || rel === 'sw.js'
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = resolve(dir, e.name)
      return e.isDirectory() ? walk(p) : [p]
    })
  return {
    name: 'service-worker',
    apply: 'build',
    closeBundle() {
      const files = walk(dist)
        .map((p) => relative(dist, p).split('\\').join('/'))
        .filter((rel) => !skip(rel) && !rel.split('/').some((s) => s.startsWith('.')))
        .sort()
      const hash = createHash('sha256')
      for (const f of files) hash.update(f).update(readFileSync(resolve(dist, f)))
      const src = readFileSync(resolve(import.meta.dirname, 'src/sw.js'), 'utf8')
        .replace('self.__HMDP_PRECACHE__', JSON.stringify(files))
        .replace('self.__HMDP_VERSION__', JSON.stringify(hash.digest('hex').slice(0, 16)))
      writeFileSync(resolve(dist, 'sw.js'), src)
    },
  }
}

// dist/.vite/preload.json: for each route of src/router.ts (by name, the
// key of src/routes.json), the files its page needs beyond the entry's: the
// page's chunk, its static imports and their CSS. The server (webapp.go)
// names them as modulepreload (and preload) links in the index page it
// sends for that route, so that the browser fetches them with the entry
// instead of after the entry has run (one round trip less before the
// page's data is asked for). A route whose component is not imported on
// its own line of router.ts has none: its page loads as before.
function routePreloads(): Plugin {
  const dist = resolve(import.meta.dirname, 'dist')
  return {
    name: 'route-preloads',
    apply: 'build',
    closeBundle() {
      const manifest = JSON.parse(readFileSync(resolve(dist, '.vite/manifest.json'), 'utf8')) as Record<
        string,
        { file: string; imports?: string[]; css?: string[] }
      >
      const closure = (key: string, into: Set<string>): Set<string> => {
        const c = manifest[key]
        if (!c || into.has(c.file)) return into
        into.add(c.file)
        for (const css of c.css ?? []) into.add(css)
        for (const imp of c.imports ?? []) closure(imp, into)
        return into
      }
      const entry = closure('index.html', new Set())
      const router = readFileSync(resolve(import.meta.dirname, 'src/router.ts'), 'utf8')
      const out: Record<string, string[]> = {}
      for (const m of router.matchAll(/name: '(\w+)'.*?import\('\.\/([^']+\.vue)'\)/g)) {
        const files = [...closure(`src/${m[2]}`, new Set())].filter((f) => !entry.has(f))
        if (files.length) out[m[1]!] = files
      }
      writeFileSync(resolve(dist, '.vite/preload.json'), JSON.stringify(out, null, 1) + '\n')
    },
  }
}

// `make web-dev` runs this dev server in front of a server on :8080 (or
// HMDP_DEV_API); the app uses same-origin /graphql and /images paths.
const api = process.env.HMDP_DEV_API ?? 'http://localhost:8080'

export default defineConfig({
  base: '/app/',
  plugins: [vue(), keepDistReadme(), serviceWorker(), routePreloads()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2020',
    sourcemap: false,
    chunkSizeWarningLimit: 200,
    manifest: true, // read by scripts/size.mjs; not served (webapp skips dot directories)
  },
  server: {
    port: 5173,
    strictPort: false,
    proxy: {
      // The server accepts websockets only from its own origin: present the
      // proxied requests as coming from it.
      '/graphql': {
        target: api,
        ws: true,
        changeOrigin: true,
        configure(proxy) {
          proxy.on('proxyReq', (req) => req.setHeader('origin', api))
          proxy.on('proxyReqWs', (req) => req.setHeader('origin', api))
        },
      },
      '/images': { target: api, changeOrigin: true },
    },
  },
})
