import type { Page } from '@playwright/test'
import { test, expect } from './fixtures'

// What Lighthouse's mobile Performance score stands on (docs/BENCHMARKS.md
// "Lighthouse"), checked on the three pages it is measured on: nothing on
// screen moves when the data and the photos arrive (CLS), and the photo
// that is the largest paint is asked for first and has its room before it
// loads. Answers are held back here (as on a slow phone network), so that
// they arrive after the first paint, where a shift would show.

type Shift = { value: number; nodes: string[] }

/** watchPaints records every layout shift and the largest contentful paint from the page's start. */
async function watchPaints(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: Shift[]; __lcp: Element | null }
    w.__shifts = []
    w.__lcp = null
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] })[]) {
        if (e.hadRecentInput) continue
        const nodes = (e.sources ?? []).map((s) => {
          const n = s.node
          return n instanceof Element ? `${n.tagName.toLowerCase()}.${[...n.classList].join('.')}` : String(n?.nodeName)
        })
        w.__shifts.push({ value: e.value, nodes })
      }
    }).observe({ type: 'layout-shift', buffered: true })
    new PerformanceObserver((list) => {
      const last = list.getEntries().at(-1) as (PerformanceEntry & { element?: Element | null }) | undefined
      if (last) w.__lcp = last.element ?? null
    }).observe({ type: 'largest-contentful-paint', buffered: true })
  })
}

/**
 * slowNetwork holds every GraphQL answer back by 400 ms and every photo by
 * 900 ms. Home's hot posts keep only those with a demo picture (or none):
 * other tests' uploads have other proportions, whose covers do take their
 * own room when they load.
 */
async function slowNetwork(page: Page): Promise<void> {
  await page.route('**/graphql', async (route) => {
    const req = route.request()
    if (req.method() !== 'POST') return route.continue()
    await new Promise((r) => setTimeout(r, 400))
    const r = await route.fetch()
    const body = (await r.json()) as { data?: { hotBlogs?: { edges: { node: { images: string[] } }[] } } }
    const hot = body.data?.hotBlogs
    if (hot) hot.edges = hot.edges.filter((e) => !e.node.images.length || e.node.images[0]!.startsWith('/images/demo-'))
    await route.fulfill({ response: r, json: body })
  })
  await page.route('**/images/**', async (route) => {
    await new Promise((r) => setTimeout(r, 900))
    await route.continue()
  })
}

/** settle waits until every photo on screen has loaded, then a little for the last frame. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.waitForFunction(() => [...document.images].every((i) => i.complete))
  await page.waitForTimeout(300)
}

async function shifts(page: Page): Promise<Shift[]> {
  return page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts)
}

/** expectLcpPhotoFirst: when the largest paint is a photo, it was asked for eagerly, first, and had its room. */
async function expectLcpPhotoFirst(page: Page): Promise<void> {
  const lcp = await page.evaluate(() => {
    const el = (window as unknown as { __lcp: Element | null }).__lcp
    if (!(el instanceof HTMLImageElement)) return null
    return { loading: el.loading, priority: el.getAttribute('fetchpriority'), ratio: getComputedStyle(el).aspectRatio }
  })
  if (!lcp) return
  expect(lcp.loading).toBe('eager')
  expect(lcp.priority).toBe('high')
  expect(lcp.ratio, 'the photo has its proportions before it loads').not.toBe('auto')
}

const pages = [
  { name: 'home', path: '/app/', ready: (p: Page) => expect(p.locator('.blog-card').first()).toBeVisible() },
  { name: 'shop', path: '/app/shops/1', ready: (p: Page) => expect(p.locator('.gallery img').first()).toBeVisible() },
  { name: 'type list', path: '/app/types/1', ready: (p: Page) => expect(p.locator('.shop-card').first()).toBeVisible() },
]

for (const { name, path, ready } of pages) {
  test(`${name}: nothing moves while the data and photos arrive (CLS < 0.05)`, async ({ page }) => {
    await watchPaints(page)
    await slowNetwork(page)
    await page.goto(path)
    await ready(page)
    await settle(page)
    const all = await shifts(page)
    // The sum of every shift: at least Lighthouse's CLS (its largest burst).
    const total = all.reduce((s, e) => s + e.value, 0)
    expect(total, `layout shifts: ${JSON.stringify(all)}`).toBeLessThan(0.05)
    await expectLcpPhotoFirst(page)
  })
}

test('the shop page asks for its first photo first and keeps its room', async ({ page }) => {
  await page.goto('/app/shops/1')
  const first = page.locator('.gallery img').first()
  await expect(first).toBeVisible()
  await expect(first).toHaveAttribute('fetchpriority', 'high')
  await expect(first).toHaveAttribute('loading', 'eager')
  const box = await first.evaluate((img) => ({ ratio: getComputedStyle(img).aspectRatio, h: img.getBoundingClientRect().height }))
  expect(box.ratio).not.toBe('auto')
  expect(box.h).toBeGreaterThan(100)
  // The other photos wait until they are scrolled to.
  if ((await page.locator('.gallery img').count()) > 1) await expect(page.locator('.gallery img').nth(1)).toHaveAttribute('loading', 'lazy')
})

test('a first visit to Home loads no websocket code and opens no socket', async ({ page }) => {
  const sockets: string[] = []
  page.on('websocket', (ws) => sockets.push(ws.url()))
  const scripts: string[] = []
  page.on('response', async (r) => {
    if (r.request().resourceType() === 'script') scripts.push(await r.text().catch(() => ''))
  })
  await page.goto('/app/')
  await expect(page.locator('.blog-card').first()).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(sockets).toEqual([])
  // graphql-ws names its subprotocol in its code.
  expect(scripts.filter((s) => s.includes('graphql-transport-ws'))).toEqual([])
})

test('the index page of each route preloads its page’s chunk with the entry', async ({ request }) => {
  for (const [path, chunk] of [['/app/', 'HomePage'], ['/app/shops/1', 'ShopPage'], ['/app/types/1', 'ShopListPage']] as const) {
    const html = await (await request.get(path)).text()
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head, path).toMatch(new RegExp(`<link rel="modulepreload" crossorigin href="/app/assets/${chunk}-[\\w-]+\\.js">`))
  }
})
