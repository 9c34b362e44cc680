import { test as base, expect, devices, type Browser, type Page, type BrowserContext, type TestInfo, type Locator } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { readFileSync, mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ErrorCode } from '../src/gql/errorCode'
import { ADMIN_PHONE } from './global-setup'

export const baseURL = (): string => {
  const b = process.env.E2E_BASE_URL
  if (!b) throw new Error('E2E_BASE_URL not set (global-setup starts the server)')
  return b
}

export const SHOTS = resolve(import.meta.dirname, '.artifacts/screenshots')

/** A fresh 11-digit phone for a new user (registered at first login). */
export function newPhone(): string {
  return '139' + String(Math.floor(Math.random() * 1e8)).padStart(8, '0')
}

/** readCode waits for the server's "sms code sent" log line for phone. */
export async function readCode(phone: string, after = 0): Promise<string> {
  const log = process.env.E2E_LOG
  if (!log) throw new Error('E2E_LOG not set')
  const end = Date.now() + 10_000
  while (Date.now() < end) {
    const lines = readFileSync(log, 'utf8').split('\n')
    for (let i = lines.length - 1; i >= after; i--) {
      const l = lines[i]
      if (!l || !l.includes('sms code sent')) continue
      try {
        const j = JSON.parse(l) as { msg?: string; phone?: string; code?: string }
        if (j.msg === 'sms code sent' && j.phone === phone && j.code) return j.code
      } catch {
        /* not JSON */
      }
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no code for ${phone} in the server log`)
}

/** logLines counts the server log's lines: pass it to readCode to read only codes sent after it. */
export function logLines(): number {
  return readFileSync(process.env.E2E_LOG!, 'utf8').split('\n').length - 1
}

/** gql sends one GraphQL request to the server (test set-up outside the browser). */
export async function gql<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<{ data?: T; errors?: { message: string; extensions?: { code?: ErrorCode } }[] }> {
  const r = await fetch(baseURL() + '/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  })
  return (await r.json()) as { data?: T; errors?: { message: string; extensions?: { code?: ErrorCode } }[] }
}

/** apiLogin logs a phone in through the API (code from the log) and returns the token. */
export async function apiLogin(phone = newPhone()): Promise<string> {
  const mark = logLines()
  const sent = await gql('mutation($p: String!) { sendCode(phone: $p) }', { p: phone })
  if (sent.errors) throw new Error(JSON.stringify(sent.errors))
  const code = await readCode(phone, mark)
  const r = await gql<{ login: { token: string } }>('mutation($p: String!, $c: String) { login(phone: $p, code: $c) { token } }', { p: phone, c: code })
  if (!r.data) throw new Error(JSON.stringify(r.errors))
  return r.data.login.token
}

// One admin login for the run (global-setup's E2E_ADMIN_TOKEN), else one per
// worker: codes are limited to one a minute per phone.
let adminToken: Promise<string> | null = null
export const adminLogin = (): Promise<string> => (adminToken ??= process.env.E2E_ADMIN_TOKEN ? Promise.resolve(process.env.E2E_ADMIN_TOKEN) : apiLogin(ADMIN_PHONE))

/** createFlashSale makes a flash-sale voucher of a shop as the admin (skips the test on a server without the admin phone). */
export async function createFlashSale(admin: string, shopId: string, title: string, stock: number, beginInMs: number): Promise<string> {
  const now = Date.now()
  const r = await gql<{ createVoucher: { id: string } }>(`mutation($in: CreateVoucherInput!) { createVoucher(input: $in) { id } }`, {
    in: {
      shopId, title, payValue: 990, actualValue: 2000,
      seckill: { stock, beginTime: new Date(now + beginInMs).toISOString(), endTime: new Date(now + 3_600_000 * 2).toISOString() },
    },
  }, admin)
  if (r.errors?.[0]?.extensions?.code === 'FORBIDDEN') base.skip(true, 'the server under test has no admin phone ' + ADMIN_PHONE)
  expect(r.errors).toBeUndefined()
  return r.data!.createVoucher.id
}

/**
 * payOnProvider clicks the order's pay button, which opens the payment
 * provider's pay page in a new tab, clicks 支付 (pay) or 取消 (cancel) there and
 * closes that tab; the app's page stays as it was.
 */
export async function payOnProvider(page: Page, order: Locator, action: '支付' | '取消', button = 'Pay'): Promise<void> {
  const [pay] = await Promise.all([page.waitForEvent('popup'), order.getByRole('button', { name: button, exact: true }).click()])
  await pay.waitForURL(/\/pay\//)
  await expect(pay.getByRole('heading', { name: /支付沙箱/ })).toBeVisible()
  await pay.getByRole('button', { name: action }).click()
  await expect(pay.getByText(action === '支付' ? '状态: PAID' : '状态: CLOSED')).toBeVisible()
  await pay.close()
}

/** login logs in through the login page and returns the phone. */
export async function login(page: Page, phone = newPhone(), landing: RegExp = /\/app\/me$/): Promise<string> {
  if (!/\/app\/login/.test(page.url())) await page.goto('/app/login')
  await page.getByRole('textbox', { name: 'Phone' }).fill(phone)
  const mark = logLines()
  await page.getByRole('button', { name: 'Send code' }).click()
  await expect(page.getByText('Code sent')).toBeVisible()
  const code = await readCode(phone, mark)
  await page.getByRole('textbox', { name: 'Code' }).fill(code)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(landing)
  return phone
}

/**
 * watch records, for a browser context, every console error, page error and
 * request to anything but the server (such requests are also aborted).
 */
export async function watch(context: BrowserContext) {
  const problems: string[] = []
  const offOrigin: string[] = []
  const origin = new URL(baseURL()).origin
  const wsOrigin = origin.replace(/^http/, 'ws')
  // The payment provider's pay page (the sandbox global-setup starts) is the one other host the app sends buyers to.
  const payOrigin = process.env.E2E_PAY_URL ? new URL(process.env.E2E_PAY_URL).origin : null
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith(origin + '/') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue()
    if (payOrigin && url.startsWith(payOrigin + '/')) return route.continue()
    offOrigin.push(url)
    return route.abort('blockedbyclient')
  })
  const attach = (page: Page) => {
    page.on('console', (m) => {
      // A page the server answers 404 on purpose (an unknown /app/ path shows
      // the app's not-found page): Chromium logs the document's own status.
      const own404 = m.location().url === page.url() && /status of 404/.test(m.text())
      if (m.type() === 'error' && !own404) problems.push(`console error on ${page.url()}: ${m.text()}`)
    })
    page.on('pageerror', (e) => problems.push(`page error on ${page.url()}: ${e.message}`))
    page.on('websocket', (ws) => {
      if (!ws.url().startsWith(wsOrigin + '/')) offOrigin.push(ws.url())
    })
  }
  context.pages().forEach(attach)
  context.on('page', attach)
  return {
    problems,
    offOrigin,
    check() {
      expect(offOrigin, 'requests to other hosts').toEqual([])
      expect(problems, 'console and page errors').toEqual([])
    },
  }
}

/** phonePage opens a second phone-size browser (a context of its own, watched by a guard) and its page. */
export async function phonePage(browser: Browser, setup?: (c: BrowserContext) => Promise<void>) {
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL: baseURL(), locale: 'en-US' })
  const guard = await watch(context)
  await setup?.(context)
  return { context, guard, page: await context.newPage() }
}

/** operatorPage opens a phone-size browser logged in with the admin's token (no second code sent). */
export async function operatorPage(browser: Browser, adminToken: string) {
  const p = await phonePage(browser)
  await p.page.goto('/app/login')
  await p.page.evaluate((tk) => localStorage.setItem('hmdp.token', tk), adminToken)
  return p
}

/**
 * newUser opens a phone-size browser of its own (setup runs on its context
 * first, e.g. to route its websocket), logs a new user in, and returns the
 * page, its console/network guard, and the user's name and id (from Me).
 */
export async function newUser(browser: Browser, setup?: (c: BrowserContext) => Promise<void>) {
  const { context, guard, page } = await phonePage(browser, setup)
  await login(page)
  const name = (await page.getByRole('heading', { level: 2 }).first().textContent())!.trim()
  const href = await page.getByRole('link', { name: /followers/ }).getAttribute('href')
  const id = href!.split('/').pop()!
  return { context, guard, page, name, id }
}

/** shot saves a phone-size screenshot of what is on screen. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: resolve(SHOTS, `${name}.png`), scale: 'css' })
}

/** audit runs axe on the page (no serious or critical violations) and saves a phone-size screenshot. */
export async function audit(page: Page, name: string, info: TestInfo): Promise<void> {
  if (info.project.name !== 'phone') name += '-' + info.project.name
  await page.waitForLoadState('networkidle').catch(() => {})
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)
  expect(bad, `axe on ${name} (${page.url()})`).toEqual([])
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: resolve(SHOTS, `${name}.png`), scale: 'css' })
  await info.attach(name, { path: resolve(SHOTS, `${name}.png`), contentType: 'image/png' })
}

/**
 * clientAddress is a test's own client address, sent as X-Forwarded-For (the
 * server trusts loopback as its proxy in these runs: global-setup): each test
 * is a different visitor, as people are, so the suite's many logins do not
 * add up against the per-address limits (30 login codes an hour) of one.
 */
function clientAddress(testId: string, retry: number): string {
  let h = 2166136261
  for (const ch of `${testId}/${retry}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0
  return `10.${(h >>> 16) & 255}.${(h >>> 8) & 255}.${(h & 255) || 1}`
}

export const test = base.extend<{ guard: Awaited<ReturnType<typeof watch>> }>({
  baseURL: async ({}, use) => use(baseURL()),
  extraHTTPHeaders: async ({}, use, info) => use({ 'X-Forwarded-For': clientAddress(info.testId, info.retry) }),
  guard: [
    async ({ context }, use) => {
      const g = await watch(context)
      await use(g)
      g.check()
    },
    { auto: true },
  ],
})

export { expect }
