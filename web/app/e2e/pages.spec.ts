import { test, expect, login, audit } from './fixtures'

// Every page: no serious or critical axe violations, no console errors, no
// request to another host (the guard fixture), and a phone-size screenshot.

test('pages for visitors', async ({ page }, info) => {
  test.setTimeout(150_000) // 14 pages, each with axe: 55 s here beside another worker
  // Budget: the first page loads at most 150 KB of JavaScript (as sent, gzipped).
  const scripts: Promise<number>[] = []
  page.on('requestfinished', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.sizes().then((s) => s.responseBodySize))
  })
  await page.goto('/app/')
  await expect(page.getByRole('link', { name: '美食' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Hot posts' })).toBeVisible()
  await expect(page.locator('.blog-card').first()).toBeVisible()
  const js = (await Promise.all(scripts)).reduce((a, b) => a + b, 0)
  expect(js, 'bytes of JavaScript on the first page').toBeGreaterThan(10_000)
  expect(js, 'bytes of JavaScript on the first page').toBeLessThan(150 * 1024)
  console.log(`first page JavaScript: ${(js / 1024).toFixed(1)} KB over the wire`)
  await audit(page, 'home', info)

  await page.getByRole('searchbox', { name: 'Search shops' }).fill('KTV')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/\/app\/search\?q=KTV$/)
  await expect(page.getByRole('link', { name: /KTV/ }).first()).toBeVisible()
  await audit(page, 'search', info)

  await page.goto('/app/types/2')
  await expect(page.getByRole('heading', { name: 'KTV', level: 1 })).toBeVisible()
  await expect(page.locator('.shop-card').first()).toBeVisible()
  await audit(page, 'shops-of-type', info)

  // Infinite scroll: 美食 has 9 shops, pages of 8.
  await page.goto('/app/types/1')
  await expect(page.locator('.shop-card')).toHaveCount(8)
  await page.getByText('That is all.').or(page.getByRole('button', { name: 'Load more' })).scrollIntoViewIfNeeded()
  await expect(page.locator('.shop-card')).toHaveCount(9)
  await expect(page.getByText('That is all.')).toBeVisible()

  await page.goto('/app/shops/1')
  await expect(page.getByRole('heading', { name: '103茶餐厅', level: 1 })).toBeVisible()
  await expect(page.getByRole('article', { name: '100元代金券' }).getByRole('button', { name: 'Buy' })).toBeVisible()
  await expect(page.getByText(/Ends in/)).toBeVisible()
  await audit(page, 'shop', info)

  await page.goto('/app/blogs/1')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await audit(page, 'blog', info)

  await page.goto('/app/users/2')
  await expect(page.getByRole('heading', { name: '可可今天不吃肉' })).toBeVisible()
  await audit(page, 'user', info)

  await page.goto('/app/login')
  await audit(page, 'login', info)

  await page.goto('/app/no/such/page')
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
  await audit(page, 'not-found', info)
})

test('pages for a logged-in user', async ({ page }, info) => {
  await login(page)
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible()
  await audit(page, 'me', info)
  await page.getByRole('tab', { name: 'My posts' }).click()
  await expect(page.getByText('No posts yet.')).toBeVisible()

  await page.getByRole('navigation').getByRole('link', { name: 'Feed', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Following' })).toBeVisible()
  await audit(page, 'feed', info)

  await page.getByRole('navigation').getByRole('link', { name: 'Write' }).click()
  await expect(page.getByRole('heading', { name: 'New post' })).toBeVisible()
  await audit(page, 'write', info)

  // The other user's page, with a Follow button.
  await page.goto('/app/users/1')
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible()
  await audit(page, 'user-logged-in', info)
})

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' })

  test('the language follows the browser and can be switched', async ({ page }, info) => {
    await page.goto('/app/')
    await expect(page.getByRole('navigation').getByRole('link', { name: '首页' })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN')
    await audit(page, 'home-zh', info)
    await page.goto('/app/shops/1')
    await expect(page.getByRole('button', { name: '抢购' })).toBeVisible()
    await audit(page, 'shop-zh', info)
    await page.getByRole('button', { name: 'English' }).click()
    await expect(page.getByRole('article', { name: '100元代金券' }).getByRole('button', { name: 'Buy' })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    // The choice is kept.
    await page.reload()
    await expect(page.getByRole('article', { name: '100元代金券' }).getByRole('button', { name: 'Buy' })).toBeVisible()
  })
})
