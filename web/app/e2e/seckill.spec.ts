import { test, expect, login, shot } from './fixtures'

test('home → a type → a shop → Buy: Pending then Unpaid live, then Pay → Paid', async ({ page }) => {
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
  // Sorted by distance from the demo point: distances are shown.
  await expect(page.getByText(/^\d+(\.\d)? k?m$/).first()).toBeVisible()
  await page.getByRole('link', { name: '103茶餐厅' }).click()
  await expect(page).toHaveURL(/\/app\/shops\/1$/)
  await expect(page.getByRole('heading', { name: '103茶餐厅', level: 1 })).toBeVisible()
  await expect(page.getByText('Visitors today')).toBeVisible()
  // The subscription socket is up before buying (orderUpdates brings UNPAID).
  await expect(page.locator('.page.shop')).toHaveAttribute('data-live', 'true')
  const navigations: string[] = []
  page.on('framenavigated', (f) => navigations.push(f.url()))

  await page.getByRole('button', { name: 'Buy' }).click()
  const status = page.getByRole('status')
  await expect(status).toHaveText('Unpaid', { timeout: 15_000 })
  const seen = await page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses)
  expect(seen.slice(0, 2)).toEqual(['Pending', 'Unpaid'])
  expect(navigations, 'no reload').toEqual([])

  await page.getByRole('status').scrollIntoViewIfNeeded()
  await shot(page, 'shop-order-unpaid')
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(status).toHaveText('Paid')

  // One per customer, said in words.
  await page.getByRole('button', { name: 'Buy' }).click()
  await expect(page.getByRole('alert')).toHaveText('You already have an order for this voucher (one per customer).')

  // The order is on the Me page too.
  await page.getByRole('navigation').getByRole('link', { name: 'Me', exact: true }).click()
  await expect(page.getByRole('status')).toHaveText('Paid')
})
