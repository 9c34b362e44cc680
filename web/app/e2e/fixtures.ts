import { test as base, expect, type Page, type BrowserContext, type TestInfo } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { readFileSync, mkdirSync } from 'node:fs'
import { resolve } from 'node:path'

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

function logLines(): number {
  return readFileSync(process.env.E2E_LOG!, 'utf8').split('\n').length - 1
}

/** gql sends one GraphQL request to the server (test set-up outside the browser). */
export async function gql<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<{ data?: T; errors?: { message: string; extensions?: { code?: string } }[] }> {
  const r = await fetch(baseURL() + '/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  })
  return (await r.json()) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] }
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
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith(origin + '/') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue()
    offOrigin.push(url)
    return route.abort('blockedbyclient')
  })
  const attach = (page: Page) => {
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error on ${page.url()}: ${m.text()}`)
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

export const test = base.extend<{ guard: Awaited<ReturnType<typeof watch>> }>({
  baseURL: async ({}, use) => use(baseURL()),
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
