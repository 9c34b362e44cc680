import { test, expect, login, adminLogin, createFlashSale, payOnProvider } from './fixtures'

test('取消 on the pay page leaves the order Unpaid with Pay again; a provider failure is said in words; paying again works', async ({ page }) => {
  const admin = await adminLogin()
  await createFlashSale(admin, '5', 'Pay later', 5, -60_000)
  await login(page)
  await page.goto('/app/shops/5')
  await expect(page.locator('.page.shop')).toHaveAttribute('data-live', 'true')
  await page.getByRole('article', { name: 'Pay later' }).getByRole('button', { name: 'Buy' }).click()
  const order = page.getByRole('region', { name: 'Order: Pay later' })
  await expect(order.getByRole('status')).toHaveText('Unpaid', { timeout: 15_000 })

  // The buyer cancels on the provider's page: still Unpaid, and the app says so.
  await payOnProvider(page, order, '取消')
  await expect(order.locator('[data-payment]')).toHaveText('Payment cancelled on the pay page: you can pay again')
  await expect(order.getByRole('status')).toHaveText('Unpaid')

  // The same after a reload (order(id) / myOrders, not only the event).
  await page.reload()
  await expect(order.getByRole('status')).toHaveText('Unpaid')
  await expect(order.locator('[data-payment]')).toHaveAttribute('data-payment', 'CLOSED')

  // The provider cannot be reached this once: PAYMENT_FAILED in words, no pay page.
  let failed = 0
  await page.route('**/graphql', async (route) => {
    if (failed === 0 && (route.request().postData() ?? '').includes('mutation PayOrder')) {
      failed++
      return route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ data: null, errors: [{ message: 'payment provider unavailable', path: ['payOrder'], extensions: { code: 'PAYMENT_FAILED' } }] }),
      })
    }
    return route.fallback()
  })
  const popups: string[] = []
  page.on('popup', (p) => popups.push(p.url()))
  await order.getByRole('button', { name: 'Pay again' }).click()
  await expect(order.getByRole('alert')).toHaveText('The payment service could not be reached. Please try again.')
  expect(failed).toBe(1)
  await expect.poll(() => page.context().pages().length).toBe(1) // the blank tab opened for the pay page is closed

  // Pay again, and pay: Paid, live.
  await payOnProvider(page, order, '支付', 'Pay again')
  await expect(order.getByRole('status')).toHaveText('Paid')
  await expect(order.locator('[data-payment]')).toHaveAttribute('data-payment', 'PAID')
})
