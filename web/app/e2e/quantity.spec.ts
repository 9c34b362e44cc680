import { test, expect, login, gql, adminLogin, payOnProvider, operatorPage } from './fixtures'

// A normal voucher with a per-user limit, set in the operator console, bought
// 3 at a time from the shop page: the stepper stops at the limit, the total
// is the unit price × 3, the order shows × 3 and is paid 3 × the price; the
// shop page's rating widget shows the buyer's own stars. On a shop of its own
// (轰趴馆: no spec counts that type's shops), so no other spec's data moves.
test('a voucher with a per-user limit is bought 3 at a time: stepper, total, × 3 on the order, paid 3 × the price; the rating widget shows my stars', async ({ page, browser }) => {
  const admin = await adminLogin()
  const made = await gql<{ createShop: { id: string } }>(
    'mutation($name: String!) { createShop(input: {name: $name, typeId: "9", address: "3 Bulk Road", x: 120.16, y: 30.27}) { id } }',
    { name: `Bulk party ${Date.now() % 100000}` },
    admin,
  )
  if (made.errors?.[0]?.extensions?.code === 'FORBIDDEN') test.skip(true, 'the server under test has no admin phone')
  expect(made.errors).toBeUndefined()
  const shopId = made.data!.createShop.id

  // The console's voucher form sets the limit.
  const { context, page: op } = await operatorPage(browser, admin)
  await op.goto(`/app/operator?v=shop&id=${shopId}`)
  const title = `Bulk pass ${Date.now() % 100000}`
  await op.getByRole('button', { name: 'New voucher' }).click()
  const form = op.getByRole('form', { name: 'New voucher' })
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill(title)
  await form.getByRole('textbox', { name: 'Price (yuan)' }).fill('4.5')
  await form.getByRole('textbox', { name: 'Worth (yuan)' }).fill('5')
  await form.getByRole('textbox', { name: /Per-user limit/ }).fill('101')
  await form.getByRole('button', { name: 'Create' }).click()
  await expect(form.getByRole('textbox', { name: /Per-user limit/ })).toHaveAttribute('aria-invalid', 'true')
  await form.getByRole('textbox', { name: /Per-user limit/ }).fill('5')
  await form.getByRole('button', { name: 'Create' }).click()
  await expect(op.getByRole('article', { name: title })).toBeVisible()
  const listed = await gql<{ vouchers: { title: string; perUserLimit: number | null; maxQuantity: number }[] }>(
    'query($s: ID!) { vouchers(shopId: $s) { title perUserLimit maxQuantity } }',
    { s: shopId },
  )
  expect(listed.data!.vouchers.find((v) => v.title === title)).toMatchObject({ perUserLimit: 5, maxQuantity: 5 })
  await context.close()

  // The buyer's stepper: 1 to 5, the total following it.
  await login(page)
  const token = (await page.evaluate(() => localStorage.getItem('hmdp.token')))!
  expect((await gql('mutation($s: ID!) { rateShop(shopId: $s, stars: 4) { id } }', { s: shopId }, token)).errors).toBeUndefined()
  await page.goto(`/app/shops/${shopId}`)
  await expect(page.getByRole('radio', { name: '4 stars' })).toBeChecked()

  const voucher = page.getByRole('article', { name: title, exact: true })
  const stepper = voucher.getByRole('group', { name: 'Quantity' })
  const more = stepper.getByRole('button', { name: 'One more' })
  const fewer = stepper.getByRole('button', { name: 'One fewer' })
  await expect(fewer).toBeDisabled()
  await expect(voucher.getByText('At most 5 per buyer')).toBeVisible()
  for (let i = 0; i < 4; i++) await more.click()
  await expect(stepper.getByRole('spinbutton', { name: 'Quantity' })).toHaveValue('5')
  await expect(more).toBeDisabled()
  await fewer.click()
  await fewer.click()
  await expect(stepper.getByRole('spinbutton', { name: 'Quantity' })).toHaveValue('3')
  await expect(voucher.getByText('Total ¥13.50')).toBeVisible()

  await voucher.getByRole('button', { name: 'Buy', exact: true }).click()
  const order = page.getByRole('region', { name: `Order: ${title}`, exact: true })
  await expect(order.getByRole('status')).toHaveText('Unpaid')
  await expect(order.locator('[data-quantity]')).toHaveText('× 3')
  await expect(order).toContainText('total ¥13.50')
  await payOnProvider(page, order, '支付')
  await expect(order.getByRole('status')).toHaveText('Paid')

  const mine = await gql<{ myOrders: { edges: { node: { quantity: number; voucher: { title: string }; payment: { amount: number; status: string } } }[] } }>(
    '{ myOrders(first: 5) { edges { node { quantity voucher { title } payment { amount status } } } } }',
    {},
    token,
  )
  expect(mine.data!.myOrders.edges.map((e) => e.node).find((o) => o.voucher.title === title)).toMatchObject({
    quantity: 3,
    payment: { amount: 1350, status: 'PAID' },
  })
})
