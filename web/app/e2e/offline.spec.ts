import type { BrowserContext } from '@playwright/test'
import { test, expect, newPhone, audit } from './fixtures'

// Offline: a page or data that does not load says so with Retry (and loads
// by itself when the browser is back online); the service worker keeps the
// app's files and the anonymous answers it has shown, so a page seen before
// opens offline, marked "data may not be up to date"; the app is
// installable (manifest, icons, service worker).

const offlineNoise = /ERR_INTERNET_DISCONNECTED|ERR_FAILED|ERR_NAME_NOT_RESOLVED|WebSocket connection|Failed to fetch|Failed to load resource/

/**
 * offline runs fn with the browser offline, then, back online, awaits
 * recovered (the page's checks that it loaded by itself). What the browser
 * logs until then about requests that fail is expected: a request sent
 * offline may fail only after the browser is back online.
 */
async function offline(context: BrowserContext, problems: string[], fn: () => Promise<void>, recovered: () => Promise<void>) {
  const before = problems.length
  await context.setOffline(true)
  try {
    await fn()
  } finally {
    await context.setOffline(false)
  }
  try {
    await recovered()
  } finally {
    const during = problems.splice(before)
    problems.push(...during.filter((p) => !offlineNoise.test(p)))
  }
}

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' })

  test('installable; a page seen before opens offline, marked stale; an unseen one says so and loads when back online', async ({ page, context, guard }, info) => {
    await page.goto('/app/')
    await expect(page.getByRole('link', { name: '美食' })).toBeVisible()

    // Installable: the manifest with its icons, and a service worker in control.
    const href = await page.locator('link[rel="manifest"]').getAttribute('href')
    expect(href).toBe('/app/manifest.webmanifest')
    const res = await page.request.get(href!)
    expect(res.headers()['content-type']).toContain('application/manifest+json')
    const m = (await res.json()) as { start_url: string; display: string; theme_color: string; icons: { src: string; sizes: string; purpose?: string }[] }
    expect(m.start_url).toBe('/app/')
    expect(m.display).toBe('standalone')
    expect(m.theme_color).toMatch(/^#/)
    for (const [sizes, purpose] of [['192x192', 'any'], ['512x512', 'any'], ['192x192', 'maskable'], ['512x512', 'maskable']]) {
      const icon = m.icons.find((i) => i.sizes === sizes && (i.purpose ?? 'any') === purpose)
      expect(icon, `${sizes} ${purpose}`).toBeTruthy()
      const img = await page.request.get(new URL(icon!.src, new URL(href!, page.url())).toString())
      expect(img.status()).toBe(200)
      expect(img.headers()['content-type']).toBe('image/png')
    }
    await expect(page.locator('meta[name="theme-color"][media*="dark"]')).toHaveCount(1)
    await expect(page.locator('meta[name="theme-color"][media*="light"]')).toHaveCount(1)
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
    expect(scope).toMatch(/\/app\/$/)
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)

    // Seen online: Home, then a shop (its data is now kept).
    await page.goto('/app/shops/1')
    await expect(page.getByRole('heading', { name: '103茶餐厅', level: 1 })).toBeVisible()
    // Websockets work with the worker in control (a worker never sees them).
    const ack = await page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws')
          ws.onopen = () => ws.send(JSON.stringify({ type: 'connection_init' }))
          ws.onmessage = (e) => {
            resolve(JSON.parse(String(e.data)).type)
            ws.close()
          }
          ws.onerror = () => reject(new Error('websocket failed'))
        }),
    )
    expect(ack).toBe('connection_ack')
    await page.waitForLoadState('networkidle')
    await page.goto('/app/')
    await expect(page.getByRole('link', { name: '美食' })).toBeVisible()
    await page.waitForLoadState('networkidle')

    await offline(context, guard.problems, async () => {
      // A page not seen before: it says so, with Retry (which, offline, fails again).
      await page.getByRole('link', { name: '美食' }).click()
      const alert = page.getByRole('alert').filter({ hasText: 'No connection' })
      await expect(alert).toBeVisible()
      await expect(page.getByText('No shops of this type.')).toHaveCount(0) // not known: not "none"
      await expect(page.getByRole('alert')).toHaveCount(1) // said once, by the bar, not again by the list
      await alert.getByRole('button', { name: 'Retry' }).click()
      await expect(page.getByRole('alert').filter({ hasText: 'No connection' })).toBeVisible()
      await audit(page, 'offline-retry', info)

      // A page seen before opens, even as a fresh load, from what was kept, marked as such.
      await page.goto('/app/shops/1')
      await expect(page.getByRole('heading', { name: '103茶餐厅', level: 1 })).toBeVisible()
      await expect(page.getByRole('status').filter({ hasText: 'Offline · data may not be up to date' })).toBeVisible()
      await audit(page, 'offline-stale', info)

      // Back to the unseen page, still offline.
      await page.goto('/app/types/1')
      await expect(page.getByRole('alert').filter({ hasText: 'No connection' })).toBeVisible()
    }, async () => {
      // Back online: the page loads by itself (the online event), no banner
      // left, not even from a request sent offline that failed late.
      await expect(page.getByRole('heading', { name: '美食', level: 1 })).toBeVisible()
      await expect(page.locator('.shop-card').first()).toBeVisible()
      await expect(page.locator('[data-offline], [data-stale]')).toHaveCount(0)
    })
  })

  test('the service worker keeps no logged-in or mutation answer', async ({ page }) => {
    await page.goto('/app/')
    await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
    const phone = newPhone()
    const kept = await page.evaluate(async (phone) => {
      const post = async (body: unknown, headers: Record<string, string> = {}) =>
        (await fetch('/graphql', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) })).text()
      const answers = [
        await post({ query: 'query Mine { mine: shopTypes { id } }' }, { Authorization: 'Bearer 0123456789abcdef' }),
        await post({ query: 'mutation Send($p: String!) { sendCode(phone: $p) }', variables: { p: phone } }),
        await post({ query: 'query Open { open: shopTypes { id name } }' }),
      ]
      await new Promise((r) => setTimeout(r, 500))
      const c = await caches.open('hmdp-data-v1')
      const bodies: string[] = []
      for (const k of await c.keys()) bodies.push(await (await c.match(k))!.text())
      return { answers, bodies }
    }, phone)
    expect(kept.answers[1]).toContain('"sendCode":true') // the mutation went through the worker
    expect(kept.bodies.some((b) => b.includes('"open"'))).toBe(true) // the anonymous query is kept
    for (const b of kept.bodies) {
      expect(b).not.toContain('"mine"')
      expect(b).not.toContain('sendCode')
      expect(b).not.toContain('"errors"')
    }
  })
})

test('without a service worker: a page whose code does not load says so; Retry loads it', async ({ page, context, guard }) => {
  await page.goto('/app/')
  await expect(page.getByRole('link', { name: '美食' })).toBeVisible()
  // The server unreachable for the page's code (the browser still online).
  const before = guard.problems.length
  await context.route(/\/app\/assets\/ShopListPage-/, (r) => r.abort('connectionrefused'))
  await page.getByRole('link', { name: '美食' }).click()
  const alert = page.getByRole('alert').filter({ hasText: 'this page could not be loaded' })
  await expect(alert).toBeVisible()
  await expect(page).toHaveURL(/\/app\/$/)
  await context.unroute(/\/app\/assets\/ShopListPage-/)
  guard.problems.splice(before, guard.problems.length - before, ...guard.problems.slice(before).filter((p) => !/ERR_CONNECTION_REFUSED|Failed to load resource|dynamically imported module/.test(p)))
  await alert.getByRole('button', { name: 'Retry' }).click()
  await expect(page).toHaveURL(/\/app\/types\/1$/)
  await expect(page.getByRole('heading', { name: '美食', level: 1 })).toBeVisible()
  await expect(page.locator('[data-offline]')).toHaveCount(0)

  // Offline, with no service worker: the same, and back online it loads by itself.
  await page.goto('/app/')
  await expect(page.getByRole('link', { name: '美食' })).toBeVisible()
  await offline(context, guard.problems, async () => {
    await page.getByRole('link', { name: 'Me', exact: true }).click() // to login: a chunk not loaded yet
    await expect(page.getByRole('alert').filter({ hasText: 'No connection' })).toBeVisible()
  }, async () => {
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  })
})
