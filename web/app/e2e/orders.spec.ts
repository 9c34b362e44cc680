import { test, expect, login, gql, shot, adminLogin, createFlashSale, payOnProvider } from './fixtures'

test('the order life on Me: deadline countdown, pay, voucher code redeemed by the shop, refund live, filters by state', async ({ page }) => {
  const admin = await adminLogin()
  const [refundMe, useMe, leaveMe, cancelMe] = await Promise.all([
    createFlashSale(admin, '6', 'Refund me', 5, -60_000),
    createFlashSale(admin, '7', 'Use me', 5, -60_000),
    createFlashSale(admin, '8', 'Leave me unpaid', 5, -60_000),
    createFlashSale(admin, '9', 'Cancel me too', 5, -60_000),
  ])
  // Record every status text, so a short Refunding is seen too.
  await page.addInitScript(() => {
    const seen: Record<string, string[]> = ((window as unknown as { __statuses: Record<string, string[]> }).__statuses = {})
    new MutationObserver(() => {
      document.querySelectorAll('[data-order]').forEach((el) => {
        const id = (el as HTMLElement).dataset.order!
        const s = el.querySelector('[role="status"]')?.textContent?.trim() ?? ''
        const list = (seen[id] ??= [])
        if (list[list.length - 1] !== s) list.push(s)
      })
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  await login(page)
  const token = (await page.evaluate(() => localStorage.getItem('hmdp.token')))!
  // Two orders through the API: one left unpaid, one cancelled.
  const order = async (v: string) => {
    const r = await gql<{ seckillVoucher: { orderId: string } }>('mutation($v: ID!) { seckillVoucher(voucherId: $v) { orderId } }', { v }, token)
    expect(r.errors).toBeUndefined()
    return r.data!.seckillVoucher.orderId
  }
  await order(leaveMe)
  const cancelId = await order(cancelMe)
  const persisted = async (id: string) =>
    expect.poll(async () => (await gql<{ order: { status: string } | null }>('query($id: ID!) { order(id: $id) { status } }', { id }, token)).data?.order?.status, { timeout: 15_000 }).toBe('UNPAID')
  await persisted(cancelId)
  expect((await gql('mutation($id: ID!) { cancelOrder(orderId: $id) { id } }', { id: cancelId }, token)).errors).toBeUndefined()
  const useId = await order(useMe)
  const refundId = await order(refundMe)
  await persisted(useId)
  await persisted(refundId)

  await page.getByRole('navigation').getByRole('link', { name: 'Me', exact: true }).click()
  const refundOrder = page.getByRole('region', { name: 'Order: Refund me' })
  const useOrder = page.getByRole('region', { name: 'Order: Use me' })
  const unpaid = page.getByRole('region', { name: 'Order: Leave me unpaid' })
  const cancelled = page.getByRole('region', { name: 'Order: Cancel me too' })
  // Unpaid orders count down to their deadline (HMDP_ORDER_PAY_TIMEOUT, 15 min by default).
  await expect(unpaid.getByRole('status')).toHaveText('Unpaid')
  await expect(unpaid.getByText(/^Pay within 00:1[0-5]:\d\d, or the order is cancelled$/)).toBeVisible()
  const before = await unpaid.getByText(/^Pay within/).textContent()
  await expect(unpaid.getByText(/^Pay within/)).not.toHaveText(before!) // it ticks
  await expect(cancelled.getByRole('status')).toHaveText('Cancelled')
  await expect(cancelled.getByText('Cancelled by you')).toBeVisible()

  // Pay one; its voucher code is shown; the shop redeems that code: Used, live.
  await payOnProvider(page, useOrder, '支付')
  await expect(useOrder.getByRole('status')).toHaveText('Paid')
  const code = useOrder.getByRole('group', { name: 'Voucher code' })
  await expect(code).toBeVisible()
  await useOrder.scrollIntoViewIfNeeded()
  await shot(page, 'me-order-paid-code')
  const shown = (await code.locator('.code').textContent())!.replace(/\s/g, '')
  expect(shown).toBe(useId)
  const redeemed = await gql('mutation($id: ID!) { redeemOrder(orderId: $id) { status } }', { id: shown }, admin)
  expect(redeemed.errors).toBeUndefined()
  await expect(useOrder.getByRole('status')).toHaveText('Used')
  await expect(useOrder.getByRole('group', { name: 'Voucher code' })).toHaveCount(0)

  // Pay the other, then get the money back: Refunding, then Refunded, live.
  await payOnProvider(page, refundOrder, '支付')
  await expect(refundOrder.getByRole('status')).toHaveText('Paid')
  await refundOrder.getByRole('button', { name: 'Refund' }).click()
  await expect(refundOrder.getByRole('status')).toHaveText('Refunded')
  await expect(refundOrder.locator('[data-payment]')).toHaveText('¥9.90 refunded')
  const seen = await page.evaluate((id) => (window as unknown as { __statuses: Record<string, string[]> }).__statuses[id], refundId)
  expect(seen.slice(-3)).toEqual(['Paid', 'Refunding', 'Refunded'])

  // Filters by state.
  const filter = page.getByRole('group', { name: 'Show orders' })
  const shownTitles = () => page.locator('#panel-orders [data-order] strong').allTextContents()
  const expectOnly = async (name: string, titles: string[]) => {
    await filter.getByRole('button', { name, exact: true }).click()
    await expect(filter.getByRole('button', { name, exact: true })).toHaveAttribute('aria-pressed', 'true')
    await expect.poll(shownTitles).toEqual(titles)
  }
  await expectOnly('Unpaid', ['Leave me unpaid'])
  await expectOnly('Used', ['Use me'])
  await expectOnly('Refunded', ['Refund me'])
  await expectOnly('Cancelled', ['Cancel me too'])
  await expectOnly('Paid', [])
  await expect(page.getByText('No orders in this state.')).toBeVisible()
  await expectOnly('All', ['Refund me', 'Use me', 'Cancel me too', 'Leave me unpaid'])
  await filter.evaluate((el) => el.scrollIntoView({ block: 'start' }))
  await page.evaluate(() => window.scrollBy(0, -60)) // below the sticky header
  await shot(page, 'me-orders')
})
