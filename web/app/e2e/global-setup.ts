import { spawn, execFileSync } from 'node:child_process'
import { createServer } from 'node:net'
import { mkdtempSync, mkdirSync, openSync, writeFileSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const ADMIN_PHONE = '13900000001'
export const STATE = resolve(import.meta.dirname, '.artifacts/server.json')
const repo = resolve(import.meta.dirname, '../../..')

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => (typeof a === 'object' && a ? res(a.port) : rej(new Error('no port'))))
    })
  })
}

async function waitReady(url: string, ms: number, log: string): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    try {
      const r = await fetch(url)
      if (r.ok) return
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`server not ready at ${url}; log:\n${readFileSync(log, 'utf8').slice(-3000)}`)
}

export default async function globalSetup(): Promise<void> {
  // An already running server (e.g. `make run` or web-dev): E2E_BASE_URL and E2E_LOG.
  if (process.env.E2E_BASE_URL) {
    process.env.E2E_LOG ??= ''
    return
  }
  let bin = process.env.HMDP_BIN
  if (!bin) {
    bin = join(repo, 'bin/hmdp-web-test')
    execFileSync('go', ['build', '-o', bin, './server'], { cwd: repo, stdio: 'inherit' })
  }
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'hmdp-web-e2e-'))
  const log = join(dir, 'server.log')
  const out = openSync(log, 'a')
  const child = spawn(bin, [], {
    cwd: dir,
    env: {
      ...process.env,
      HMDP_ADDR: `127.0.0.1:${port}`,
      HMDP_DATA_DIR: join(dir, 'data'),
      // The embedded back ends, or real ones when CI names them (a fresh
      // database; a key prefix of this run's own on the shared Redis).
      HMDP_MYSQL_DSN: process.env.E2E_MYSQL_DSN ?? '',
      HMDP_REDIS_ADDR: process.env.E2E_REDIS_ADDR ?? '',
      HMDP_REDIS_PREFIX: `e2e${port}:`,
      HMDP_SEED: 'true',
      HMDP_LOG_LEVEL: 'info',
      // The admin creates vouchers in some tests (flash-sale states).
      HMDP_ADMIN_PHONES: ADMIN_PHONE,
    },
    stdio: ['ignore', out, out],
    detached: false,
  })
  const base = `http://127.0.0.1:${port}`
  await waitReady(`${base}/readyz`, 60_000, log)
  process.env.E2E_BASE_URL = base
  process.env.E2E_LOG = log
  mkdirSync(dirname(STATE), { recursive: true })
  writeFileSync(STATE, JSON.stringify({ pid: child.pid, dir, base, log }))
  // Safety net should the runner end without running global-teardown.
  process.on('exit', () => {
    try {
      child.kill('SIGKILL')
    } catch {
      /* gone */
    }
  })
  child.unref()
}
