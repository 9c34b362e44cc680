import { test, expect, login, apiLogin, gql, adminLogin, createFlashSale } from './fixtures'

test('a sale not started counts down; a sold-out voucher is said in words', async ({ page }) => {
  const admin = await adminLogin()
  await createFlashSale(admin, '2', 'Later sale', 5, 3_600_000)
  const lastUnit = await createFlashSale(admin, '3', 'Last unit', 1, -60_000)

  await login(page)
  await page.goto('/app/shops/2')
  const later = page.getByRole('article', { name: 'Later sale' })
  await expect(later.getByText(/Starts in 00:59:\d\d/)).toBeVisible()
  await expect(later.getByRole('button', { name: 'Coming soon' })).toBeDisabled()

  await page.goto('/app/shops/3')
  const last = page.getByRole('article', { name: 'Last unit' })
  await expect(last.getByText('1 left')).toBeVisible()
  // Someone else takes the last unit while this page is open.
  const other = await apiLogin()
  const bought = await gql('mutation($v: ID!) { seckillVoucher(voucherId: $v) { orderId } }', { v: lastUnit }, other)
  expect(bought.errors).toBeUndefined()
  // The card follows the live stock (saleUpdates): no Buy button to press in vain.
  await expect(last.getByRole('button', { name: 'Sold out' })).toBeDisabled()
  await expect(last.getByText('0 left')).toBeVisible()
})

test('an unpaid order is cancelled from the Me page', async ({ page }) => {
  const admin = await adminLogin()
  await createFlashSale(admin, '4', 'Cancel me', 5, -60_000)
  await login(page)
  await page.goto('/app/shops/4')
  await expect(page.locator('.page.shop')).toHaveAttribute('data-live', 'true')
  await page.getByRole('article', { name: 'Cancel me' }).getByRole('button', { name: 'Buy' }).click()
  await expect(page.getByRole('status')).toHaveText('Unpaid', { timeout: 15_000 })
  await expect(page.getByRole('article', { name: 'Cancel me' }).getByText('4 left')).toBeVisible()
  await page.getByRole('navigation').getByRole('link', { name: 'Me', exact: true }).click()
  const order = page.getByRole('region', { name: 'Order: Cancel me' })
  await expect(order.getByRole('status')).toHaveText('Unpaid')
  await order.getByRole('button', { name: 'Cancel' }).click()
  await expect(order.getByRole('status')).toHaveText('Cancelled')
  // The unit is back on sale.
  await page.goto('/app/shops/4')
  await expect(page.getByRole('article', { name: 'Cancel me' }).getByText('5 left')).toBeVisible()
})
