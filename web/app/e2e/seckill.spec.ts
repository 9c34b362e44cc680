import { test, expect, login, shot, payOnProvider } from './fixtures'

test('home → a type → a shop → Buy: Pending then Unpaid live, then Pay on the provider\'s page → Paid live', async ({ page }) => {
  // Record every text the order status shows, so a short-lived Pending is seen too.
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __statuses: string[] }).__statuses = [])
    new MutationObserver(() => {
      document.querySelectorAll('[role="status"][data-status]').forEach((el) => {
        const s = el.textContent?.trim() ?? ''
        if (seen[seen.length - 1] !== s) seen.push(s)
      })
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  await login(page)
  await page.getByRole('navigation').getByRole('link', { name: 'Home', exact: true }).click()
  await page.getByRole('link', { name: '美食' }).click()
  await expect(page).toHaveURL(/\/app\/types\/1$/)
  await expect(page.getByRole('heading', { name: '美食', level: 1 })).toBeVisible()
  // Sorted from the demo point; without the viewer's position no distance is shown.
  await expect(page.getByText(/Nearest the demo city centre/)).toBeVisible()
  await expect(page.locator('.shop-card .distance')).toHaveCount(0)
  await page.getByRole('link', { name: '103茶餐厅' }).click()
  await expect(page).toHaveURL(/\/app\/shops\/1$/)
  await expect(page.getByRole('heading', { name: '103茶餐厅', level: 1 })).toBeVisible()
  await expect(page.getByText('Visitors today')).toBeVisible()
  // The subscription socket is up before buying (orderUpdates brings UNPAID).
  await expect(page.locator('.page.shop')).toHaveAttribute('data-live', 'true')
  const navigations: string[] = []
  page.on('framenavigated', (f) => navigations.push(f.url()))
  // The mutations the purchase sends (queries that refresh the page are not counted).
  const mutations: string[] = []
  page.on('request', (r) => {
    if (r.method() !== 'POST' || !r.url().includes('/graphql')) return
    const m = /^\s*mutation\s+(\w+)/.exec(String((r.postDataJSON() as { query?: string } | null)?.query ?? ''))
    if (m) mutations.push(m[1]!)
  })

  await page.getByRole('article', { name: '100元代金券' }).getByRole('button', { name: 'Buy' }).click()
  const status = page.getByRole('status')
  await expect(status).toHaveText('Unpaid', { timeout: 15_000 })
  // Tokens are off (HMDP_SECKILL_TOKEN's default; seckillTokenRequired says
  // so with the shop): the purchase is the one seckillVoucher request.
  expect(mutations, 'one request buys').toEqual(['Seckill'])
  const seen = await page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses)
  expect(seen.slice(0, 2)).toEqual(['Pending', 'Unpaid'])
  expect(navigations, 'no reload').toEqual([])

  await page.getByRole('status').scrollIntoViewIfNeeded()
  await shot(page, 'shop-order-unpaid')
  // Pay: the provider's pay page opens in a new tab; 支付 there, and its
  // notify makes the order Paid here, live (orderUpdates).
  const order = page.getByRole('region', { name: /^Order: / })
  await payOnProvider(page, order, '支付')
  await expect(status).toHaveText('Paid')
  await expect(order.locator('[data-payment]')).toHaveText(/^Paid ¥/)
  await expect(order.getByRole('group', { name: 'Voucher code' })).toBeVisible()
  // The code as a QR code for the shop to scan: the order id (redeemOrder's).
  const qr = order.getByRole('img', { name: 'QR code of the voucher code' })
  await expect(qr).toBeVisible()
  const digits = (await order.locator('.voucher-code .code').innerText()).replace(/\s/g, '')
  await expect(qr).toHaveAttribute('data-qr', digits)
  await qr.scrollIntoViewIfNeeded()
  await shot(page, 'shop-order-paid')
  expect(navigations, 'no reload').toEqual([])

  // One per customer, said in words.
  await page.getByRole('article', { name: '100元代金券' }).getByRole('button', { name: 'Buy' }).click()
  await expect(page.getByRole('alert')).toHaveText('You already have an order for this voucher (one per customer).')

  // The order is on the Me page too.
  await page.getByRole('navigation').getByRole('link', { name: 'Me', exact: true }).click()
  await expect(page.getByRole('status')).toHaveText('Paid')
})
