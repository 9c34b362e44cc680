import type { Page } from '@playwright/test'
import { test, expect, gql, audit } from './fixtures'

// Finding a shop as on Dianping: a type's shops sorted by rating or price,
// narrowed to an area, found by pinyin or by several words, each card with
// its best voucher as a 券 tag; posts in a two-column waterfall on a phone.

type Row = { id: string; name: string; area: string; score: number; avgPrice: number }

/** Every shop of type 1, read from the API in id order (the order the test checks the app's against). */
async function typeOne(): Promise<Row[]> {
  const r = await gql<{ shops: { edges: { node: Row }[] } }>(`{ shops(typeId: "1", sort: ID, first: 50) { edges { node { id name area score avgPrice } } } }`)
  expect(r.errors).toBeUndefined()
  return r.data!.shops.edges.map((e) => e.node)
}

/** The names on the shop cards shown, once at least n are there. */
async function cardNames(page: Page, n: number): Promise<string[]> {
  await expect(page.locator('.shop-card').nth(n - 1)).toBeVisible()
  return page.locator('.shop-card h2').allTextContents()
}

async function sortBy(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label })
}

test('a type sorted by rating and by price, narrowed to an area', async ({ page }) => {
  const rows = await typeOne()
  const byScore = [...rows].sort((a, b) => b.score - a.score || Number(b.id) - Number(a.id)).map((r) => r.name)
  const byPrice = [...rows].sort((a, b) => a.avgPrice - b.avgPrice || Number(a.id) - Number(b.id)).map((r) => r.name)
  await page.goto('/app/types/1')
  await expect(page.locator('.shop-card').first()).toBeVisible()

  await sortBy(page, 'Best rated')
  await expect(page.locator('.shop-card h2').first()).toHaveText(byScore[0])
  expect(await cardNames(page, 8)).toEqual(byScore.slice(0, 8))

  await sortBy(page, 'Price: low to high')
  await expect(page.locator('.shop-card h2').first()).toHaveText(byPrice[0])
  expect(await cardNames(page, 8)).toEqual(byPrice.slice(0, 8))

  // An area chip: only that area's shops, still cheapest first.
  const area = rows.find((r) => r.name.startsWith('海底捞'))!.area
  const inArea = byPrice.filter((name) => rows.find((r) => r.name === name)!.area === area)
  expect(inArea.length).toBeGreaterThan(0)
  const chip = page.getByRole('group', { name: 'Area' }).getByRole('button', { name: area, exact: true })
  await chip.click()
  await expect(chip).toHaveAttribute('aria-pressed', 'true')
  await expect(page.locator('.shop-card')).toHaveCount(Math.min(inArea.length, 8))
  expect(await page.locator('.shop-card h2').allTextContents()).toEqual(inArea.slice(0, 8))

  // A price band on top: every card within it.
  await page.getByRole('group', { name: 'Price per person' }).getByRole('button', { name: 'Any price' }).click()
  await chip.click() // all areas again
  await page.getByRole('group', { name: 'Price per person' }).getByRole('button', { name: '¥50–100' }).click()
  const inBand = byPrice.filter((name) => {
    const p = rows.find((r) => r.name === name)!.avgPrice
    return p >= 50 && p <= 100
  })
  await expect(page.locator('.shop-card h2').first()).toHaveText(inBand[0])
  await audit(page, 'discovery-filters', test.info())
  for (const width of [360, 375, 390]) {
    await page.setViewportSize({ width, height: 800 })
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    const sw = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(sw, `shop list with filters at ${width} px`).toBeLessThanOrEqual(width)
  }
})

test('search by pinyin and by several words finds 海底捞', async ({ page }) => {
  await page.goto('/app/')
  await page.getByRole('searchbox', { name: 'Search shops' }).fill('haidilao')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/\/app\/search\?q=haidilao$/)
  await expect(page.locator('.shop-card h2')).toHaveText(['海底捞火锅(水晶城购物中心店）'])

  const box = page.getByRole('searchbox', { name: 'Search shops' })
  await box.fill('海底捞 水晶城')
  await box.press('Enter')
  await expect(page.locator('.shop-card h2')).toHaveText(['海底捞火锅(水晶城购物中心店）'])
  // Both words must match: the KTV in the same mall is not 海底捞.
  await box.fill('水晶城 ktv')
  await box.press('Enter')
  await expect(page.locator('.shop-card h2')).toHaveText(['INLOVE KTV(水晶城店)'])
})

test('shop cards carry their best voucher as 券 tags', async ({ page }) => {
  const r = await gql<{ shop: { name: string; bestVoucher: { label: string; flashSale: boolean } | null } }>(`{ shop(id: "1") { name bestVoucher { label flashSale } } }`)
  const best = r.data!.shop.bestVoucher!
  expect(best).not.toBeNull()
  await page.goto('/app/types/1')
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Default' })
  const card = page.locator('.shop-card').filter({ hasText: r.data!.shop.name })
  const tags = card.getByRole('list', { name: 'Vouchers' })
  await expect(tags.getByRole('listitem').first()).toHaveText('券' + best.label)
  if (best.flashSale) await expect(tags.getByRole('listitem').nth(1)).toHaveText('Flash sale')
})

test('posts are a two-column waterfall on a phone, each cover at its own aspect ratio', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 })
  await page.goto('/app/')
  const cards = page.locator('.waterfall .blog-card')
  await expect(cards.nth(1)).toBeVisible() // the demo data has three posts
  const grid = page.locator('.waterfall')
  expect(await grid.evaluate((el) => getComputedStyle(el).columnCount)).toBe('2')
  // Covers keep their photo's shape: the height follows the loaded image, not a fixed ratio.
  const covers = page.locator('.waterfall .blog-card img.img')
  await expect(covers.first()).toBeVisible()
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.waterfall .blog-card img.img')].slice(0, 2).every((i) => i.complete && i.naturalWidth > 0))
  const shapes = await covers.evaluateAll((imgs) =>
    (imgs as HTMLImageElement[]).slice(0, 2).map((i) => {
      const b = i.getBoundingClientRect()
      return { shown: b.height / b.width, own: i.naturalHeight / i.naturalWidth }
    }),
  )
  for (const s of shapes) expect(Math.abs(s.shown - s.own)).toBeLessThan(0.02)
  for (const width of [360, 375, 390]) {
    await page.setViewportSize({ width, height: 800 })
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `home at ${width} px`).toBeLessThanOrEqual(width)
  }
})
