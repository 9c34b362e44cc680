import type { WebSocketRoute } from '@playwright/test'
import { test, expect, login, gql, shot, adminLogin, createFlashSale, payOnProvider } from './fixtures'

/** buy places a flash-sale order through the API and returns its id. */
async function buy(voucherId: string, token: string): Promise<string> {
  const r = await gql<{ seckillVoucher: { orderId: string } }>('mutation($v: ID!) { seckillVoucher(voucherId: $v) { orderId } }', { v: voucherId }, token)
  expect(r.errors).toBeUndefined()
  return r.data!.seckillVoucher.orderId
}

/** persisted waits until the order reads UNPAID (out of the order stream, in MySQL). */
async function persisted(id: string, token: string) {
  await expect
    .poll(async () => (await gql<{ order: { status: string } | null }>('query($id: ID!) { order(id: $id) { status } }', { id }, token)).data?.order?.status, { timeout: 15_000 })
    .toBe('UNPAID')
}

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
  await login(page) // lands on Me, which shows the orders below as they come
  const token = (await page.evaluate(() => localStorage.getItem('hmdp.token')))!
  await expect(page.locator('.page.me')).toHaveAttribute('data-live', 'true')
  // Two orders through the API: one left unpaid, one cancelled.
  const leaveId = await buy(leaveMe, token)
  const cancelId = await buy(cancelMe, token)
  await persisted(cancelId, token)
  expect((await gql('mutation($id: ID!) { cancelOrder(orderId: $id) { id } }', { id: cancelId }, token)).errors).toBeUndefined()
  const useId = await buy(useMe, token)
  const refundId = await buy(refundMe, token)
  await Promise.all([leaveId, useId, refundId].map((id) => persisted(id, token)))

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

test('an order listed as Pending whose event went by before the page listened still turns Unpaid', async ({ page }) => {
  const admin = await adminLogin()
  const sale = await createFlashSale(admin, '11', 'Event missed', 5, -60_000)
  await login(page)
  const token = (await page.evaluate(() => localStorage.getItem('hmdp.token')))!
  const id = await buy(sale, token)
  await persisted(id, token)
  // The list as read a moment before the order was persisted: PENDING (its
  // orderUpdates event is gone by the time the Me page subscribes).
  await page.route('**/graphql', async (route) => {
    if (!(route.request().postData() ?? '').includes('query MyOrders')) return route.fallback()
    const res = await route.fetch()
    const body = (await res.json()) as { data?: { myOrders?: { edges: { node: Record<string, unknown> }[] } } }
    for (const e of body.data?.myOrders?.edges ?? []) if (e.node.id === id) Object.assign(e.node, { status: 'PENDING', payment: null })
    return route.fulfill({ response: res, json: body })
  })
  await page.reload() // login landed on Me: read the list again
  const order = page.getByRole('region', { name: 'Order: Event missed' })
  await expect(order.getByRole('status')).toHaveText('Pending')
  await expect(order.getByRole('status')).toHaveText('Unpaid') // it asked for itself
  await expect(order.getByText(/^Pay within/)).toBeVisible()
})

test('an order placed while the socket was down shows up on Me once it is back', async ({ page }) => {
  const admin = await adminLogin()
  const sale = await createFlashSale(admin, '11', 'Bought while away', 5, -60_000)
  // The subscription socket goes through Playwright, which can drop it and
  // refuse new ones for a while (as during a server restart).
  const sockets: WebSocketRoute[] = []
  let down = false
  await page.routeWebSocket(/\/graphql$/, (ws) => {
    if (down) return ws.close({ code: 1001, reason: 'going away' })
    sockets.push(ws)
    ws.connectToServer()
  })
  await login(page) // lands on Me
  const token = (await page.evaluate(() => localStorage.getItem('hmdp.token')))!
  const me = page.locator('.page.me')
  await expect(me).toHaveAttribute('data-live', 'true')

  down = true
  for (const ws of sockets.splice(0)) await ws.close({ code: 1001, reason: 'going away' })
  await expect(me).toHaveAttribute('data-live', 'false')
  const id = await buy(sale, token)
  await persisted(id, token)
  const order = page.getByRole('region', { name: 'Order: Bought while away' })
  await expect(order).toHaveCount(0) // its events went by

  down = false
  await expect(me).toHaveAttribute('data-live', 'true', { timeout: 30_000 })
  await expect(order.getByRole('status')).toHaveText('Unpaid')
})
