import type { Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { test, expect, login, shot } from './fixtures'

// Every page at phone widths: no sideways scrolling, a title of its own, no
// axe violation at all (any impact, heading order included), in the light
// and the dark theme; focus moves to the new page's heading after a
// navigation; the main navigation comes first in the tab order.

const visitorPages: [string, RegExp | string][] = [
  ['/app/', 'Hot posts'],
  ['/app/search?q=KTV', 'Search shops'],
  ['/app/types/1', '美食'],
  ['/app/shops/1', '103茶餐厅'],
  ['/app/blogs/1', /./],
  ['/app/users/2', '可可今天不吃肉'],
  ['/app/login', 'Log in'],
  ['/app/no/such/page', 'Page not found'],
]
const userPages: [string, RegExp | string][] = [
  ['/app/me', 'Daily sign-in'],
  ['/app/feed', 'Following'],
  ['/app/write', 'New post'],
  ['/app/users/1', /./],
]

async function ready(page: Page, heading: RegExp | string) {
  await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible()
  await page.waitForLoadState('networkidle').catch(() => {})
}

/**
 * The page is no wider than the screen. A phone browser widens its layout
 * viewport to fit wider content (clientWidth grows with it), so the widths
 * are checked against the screen's.
 */
async function noSideways(page: Page, what: string) {
  const width = page.viewportSize()!.width
  const r = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, bw: document.body.scrollWidth, iw: window.innerWidth }))
  expect(r.sw, `${what}: page scroll width`).toBeLessThanOrEqual(width)
  expect(r.bw, `${what}: body scroll width`).toBeLessThanOrEqual(width)
  expect(r.iw, `${what}: window width`).toBeLessThanOrEqual(width)
}

async function axeClean(page: Page, what: string) {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  const bad = r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)
  expect(bad, `axe on ${what}`).toEqual([])
}

test('every page, light and dark: no sideways scrolling at 360/375/390 px, its own title, axe clean', async ({ page }) => {
  test.setTimeout(240_000) // 12 pages × 2 themes, each with axe
  // One login for both themes (sendCode allows 30 codes an hour per client address, for the whole suite).
  const titles = new Map<string, string>()
  const visit = async (list: [string, RegExp | string][], scheme: 'light' | 'dark') => {
    await page.emulateMedia({ colorScheme: scheme })
    for (const [url, heading] of list) {
      await page.goto(url)
      await ready(page, heading)
      for (const width of [360, 375, 390]) {
        await page.setViewportSize({ width, height: 800 })
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
        await noSideways(page, `${url} at ${width} px (${scheme})`)
      }
      await axeClean(page, `${url} (${scheme})`)
      const title = await page.title()
      expect(title, `${url} names itself`).not.toBe('hmdp')
      expect(title).toMatch(/ · hmdp$/)
      if (scheme === 'light') titles.set(url, title)
      else expect(title, `${url}: the same title in the dark`).toBe(titles.get(url))
      if (scheme === 'dark') {
        // The page really is dark.
        const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
        expect(bg, `${url} background in the dark`).toBe('rgb(16, 18, 21)')
      }
    }
  }
  await visit(visitorPages, 'light')
  await visit(visitorPages, 'dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await login(page)
  await visit(userPages, 'light')
  await visit(userPages, 'dark')
  await page.goto('/app/shops/1')
  await ready(page, '103茶餐厅')
  await shot(page, 'shop-dark')
  const values = [...titles.values()]
  expect(new Set(values).size, `titles: ${values.join(' | ')}`).toBe(values.length)
})

test('the login page does not scroll sideways while the resend countdown runs', async ({ page }) => {
  // One code sent; the countdown runs on while the width and the language change.
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto('/app/login')
  await page.getByRole('textbox', { name: 'Phone' }).fill('139' + String(Math.floor(Math.random() * 1e8)).padStart(8, '0'))
  await page.getByRole('button', { name: 'Send code' }).click()
  for (const zh of [false, true]) {
    await expect(page.getByRole('button', { name: zh ? /^\d+ 秒后重发$/ : /^Resend in \d+ s$/ })).toBeVisible()
    for (const width of [360, 375, 390]) {
      await page.setViewportSize({ width, height: 800 })
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
      await noSideways(page, `login countdown at ${width} px${zh ? ' (中文)' : ''}`)
    }
    if (!zh) {
      await shot(page, 'login-countdown')
      await page.getByRole('button', { name: '中文' }).click()
    }
  }
  // The password form too.
  await page.getByRole('button', { name: '使用密码登录' }).click()
  for (const width of [360, 375, 390]) {
    await page.setViewportSize({ width, height: 800 })
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    await noSideways(page, `login with a password at ${width} px`)
  }
})

test('the shop price reads once; no distance without the viewer’s location', async ({ page }) => {
  await page.goto('/app/shops/1')
  await expect(page.getByRole('heading', { name: '103茶餐厅', level: 1 })).toBeVisible()
  const price = page.locator('.facts > div').filter({ hasText: 'Per person' })
  await expect(price).toHaveText(/^Per person\s*¥\d+$/)
  await page.goto('/app/types/1')
  await expect(page.getByText(/Nearest the demo city centre/)).toBeVisible()
  await expect(page.locator('.shop-card').first()).toBeVisible()
  await expect(page.locator('.shop-card .distance')).toHaveCount(0)
  await expect(page.getByText(/^0 m$/)).toHaveCount(0)
})

test('after a navigation focus is on the new page’s heading; the back arrow', async ({ page }) => {
  await page.goto('/app/')
  await ready(page, 'Hot posts')
  await expect(page.getByRole('button', { name: 'Back' })).toHaveCount(0)
  // A category, by keyboard.
  await page.getByRole('link', { name: '美食' }).focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/app\/types\/1$/)
  await expect(page.getByRole('heading', { name: '美食', level: 1 })).toBeFocused()
  await expect(page).toHaveTitle('美食 · hmdp')
  // A shop.
  await page.getByRole('link', { name: '103茶餐厅' }).click()
  await expect(page.getByRole('heading', { name: '103茶餐厅', level: 1 })).toBeFocused()
  await expect(page).toHaveTitle('103茶餐厅 · hmdp')
  // Back: to the list, focus on its heading.
  await page.getByRole('button', { name: 'Back' }).click()
  await expect(page).toHaveURL(/\/app\/types\/1$/)
  await expect(page.getByRole('heading', { name: '美食', level: 1 })).toBeFocused()
  // The navigation.
  await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click()
  await expect(page).toHaveURL(/\/app\/$/)
  await expect(page.locator('h1')).toBeFocused()
  // A page opened directly: Back goes Home.
  await page.goto('/app/blogs/1')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.getByRole('button', { name: 'Back' }).click()
  await expect(page).toHaveURL(/\/app\/$/)
})

test.describe('on a desktop screen', () => {
  test.use({ viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false })

  test('the main navigation comes first in the tab order (after the skip link)', async ({ page }) => {
    await page.goto('/app/')
    await ready(page, 'Hot posts')
    const stops: string[] = []
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab')
      stops.push(await page.evaluate(() => (document.activeElement?.textContent ?? '').trim().replace(/\s+/g, ' ')))
    }
    expect(stops[0]).toBe('Skip to content')
    for (const name of ['Home', 'Feed', 'Write', 'Me']) expect(stops.some((s) => s.endsWith(name)), `${name} in ${stops.join(' | ')}`).toBe(true)
    // Skip to content moves focus to the page.
    await page.goto('/app/')
    await ready(page, 'Hot posts')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await expect(page.locator('#main')).toBeFocused()
  })
})
