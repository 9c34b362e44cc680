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

async function post(base: string, query: string, variables: Record<string, unknown>): Promise<{ data?: Record<string, { token?: string }>; errors?: unknown[] }> {
  const r = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }) })
  return (await r.json()) as { data?: Record<string, { token?: string }>; errors?: unknown[] }
}

/** adminToken logs ADMIN_PHONE in through the API, the code read from the server's log. */
async function adminToken(base: string, log: string): Promise<string> {
  const sent = await post(base, 'mutation($p: String!) { sendCode(phone: $p) }', { p: ADMIN_PHONE })
  if (sent.errors) throw new Error('admin sendCode: ' + JSON.stringify(sent.errors))
  const end = Date.now() + 10_000
  while (Date.now() < end) {
    for (const l of readFileSync(log, 'utf8').split('\n').reverse()) {
      if (!l.includes('sms code sent')) continue
      try {
        const j = JSON.parse(l) as { msg?: string; phone?: string; code?: string }
        if (j.msg !== 'sms code sent' || j.phone !== ADMIN_PHONE || !j.code) continue
        const r = await post(base, 'mutation($p: String!, $c: String) { login(phone: $p, code: $c) { token } }', { p: ADMIN_PHONE, c: j.code })
        const token = r.data?.login?.token
        if (!token) throw new Error('admin login: ' + JSON.stringify(r.errors))
        return token
      } catch (e) {
        if (e instanceof SyntaxError) continue
        throw e
      }
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('no code for the admin in the server log')
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
  // The sandbox payment provider (cmd/paysandbox; PAYSANDBOX_BIN, or built
  // here): payOrder opens a payment there, the buyer clicks 支付 or 取消 on its
  // pay page, and its signed notifies reach the server's /pay/notify.
  let sandboxBin = process.env.PAYSANDBOX_BIN
  if (!sandboxBin) {
    sandboxBin = join(repo, 'bin/paysandbox')
    execFileSync('go', ['build', '-o', sandboxBin, './cmd/paysandbox'], { cwd: repo, stdio: 'inherit' })
  }
  let payPort = await freePort()
  while (payPort === port) payPort = await freePort()
  const pay = `http://127.0.0.1:${payPort}`
  const sandboxLog = openSync(join(dir, 'paysandbox.log'), 'a')
  const sandbox = spawn(sandboxBin, [`-addr=127.0.0.1:${payPort}`, `-public-url=${pay}`, '-backoff=200ms'], {
    cwd: dir,
    env: { ...process.env },
    stdio: ['ignore', sandboxLog, sandboxLog],
    detached: false,
  })
  const base = `http://127.0.0.1:${port}`
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
      // Payments go through the sandbox provider started above.
      HMDP_PAY_PROVIDER: 'sandbox',
      HMDP_PAY_PROVIDER_URL: pay,
      HMDP_PAY_NOTIFY_URL: `${base}/pay/notify`,
      // Each test is its own visitor (fixtures.ts sends X-Forwarded-For),
      // as behind a real proxy.
      HMDP_TRUSTED_PROXIES: '127.0.0.1/32,::1/128',
    },
    stdio: ['ignore', out, out],
    detached: false,
  })
  await waitReady(`${pay}/admin/faults`, 30_000, join(dir, 'paysandbox.log'))
  await waitReady(`${base}/readyz`, 60_000, log)
  process.env.E2E_BASE_URL = base
  process.env.E2E_LOG = log
  process.env.E2E_PAY_URL = pay
  // One admin login for the whole run (the workers' tests share it): codes
  // are limited to one a minute per phone.
  process.env.E2E_ADMIN_TOKEN = await adminToken(base, log)
  mkdirSync(dirname(STATE), { recursive: true })
  writeFileSync(STATE, JSON.stringify({ pid: child.pid, sandboxPid: sandbox.pid, dir, base, log, pay }))
  // Safety net should the runner end without running global-teardown.
  process.on('exit', () => {
    try {
      child.kill('SIGKILL')
      sandbox.kill('SIGKILL')
    } catch {
      /* gone */
    }
  })
  child.unref()
  sandbox.unref()
}
