import { test, expect } from './fixtures'

// Paths that are no page of the app are HTTP 404 (the server knows the app's
// routes: src/routes.json) and show the not-found page; so does a shop type
// that does not exist (a route that matches, with an id the server does not know).

test('an unknown /app/ path answers 404 with the not-found page', async ({ page }) => {
  const nope = await page.goto('/app/nope')
  expect(nope?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible()
  await expect(page).toHaveTitle(/Page not found/)

  for (const p of ['/app/shops/abc', '/app/shops/1/more']) expect((await page.request.get(p)).status(), p).toBe(404)
  const shop = await page.goto('/app/shops/1')
  expect(shop?.status()).toBe(200)
  await expect(page.getByRole('heading', { name: '103茶餐厅', level: 1 })).toBeVisible()
})

test('an unknown shop type shows the not-found page', async ({ page }) => {
  await page.goto('/app/types/999')
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible()
  await expect(page).toHaveURL(/\/app\/types\/999$/)
  await expect(page.locator('.shop-card')).toHaveCount(0)

  // A type that exists is still a page.
  await page.getByRole('link', { name: 'Back to home' }).click()
  await page.getByRole('link', { name: '美食' }).click()
  await expect(page.getByRole('heading', { name: '美食', level: 1 })).toBeVisible()
})
