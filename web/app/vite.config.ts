import { defineConfig, type Plugin } from 'vite'
import vue from '@vitejs/plugin-vue'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'

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

// `make web-dev` runs this dev server in front of a server on :8080 (or
// HMDP_DEV_API); the app uses same-origin /graphql and /images paths.
const api = process.env.HMDP_DEV_API ?? 'http://localhost:8080'

export default defineConfig({
  base: '/app/',
  plugins: [vue(), keepDistReadme()],
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
