import type { Page } from '@playwright/test'
import { test, expect, login, adminLogin, gql, payOnProvider, audit, operatorPage } from './fixtures'

/** A real PNG drawn by the browser, so the uploaded shop photo displays. */
async function png(page: Page): Promise<Buffer> {
  const url = await page.evaluate(() => {
    const c = document.createElement('canvas')
    c.width = 480
    c.height = 360
    const g = c.getContext('2d')!
    const grad = g.createLinearGradient(0, 0, 480, 360)
    grad.addColorStop(0, '#2b7de9')
    grad.addColorStop(1, '#ff6633')
    g.fillStyle = grad
    g.fillRect(0, 0, 480, 360)
    g.fillStyle = '#fff'
    g.font = 'bold 64px sans-serif'
    g.fillText('Console', 80, 200)
    return c.toDataURL('image/png')
  })
  return Buffer.from(url.split(',')[1]!, 'base64')
}

test('an admin creates a shop with a photo and a flash sale; a buyer buys and pays; the admin sees the numbers move and redeems the code; a non-admin is refused', async ({ page, browser }, info) => {
  test.setTimeout(150_000) // two users, five console pages each with axe: 40 s alone, over 60 s beside another worker
  const adminToken = await adminLogin()
  const { context, guard, page: op } = await operatorPage(browser, adminToken)

  // The Me page links an admin to the console.
  await op.goto('/app/me')
  await op.getByRole('link', { name: 'Operator console' }).click()
  await expect(op).toHaveURL(/\/app\/operator$/)
  await expect(op.getByRole('heading', { name: 'Operator console', level: 1 })).toBeVisible()
  await audit(op, 'console-home', info)

  // A new shop: typed coordinates, an uploaded photo.
  await op.getByRole('link', { name: 'New shop' }).click()
  const shopName = `Console Café ${Date.now() % 100000}`
  await op.getByRole('textbox', { name: 'Name', exact: true }).fill(shopName)
  // A type no other spec counts the shops of (pages.spec counts 美食's nine).
  await op.getByRole('combobox', { name: 'Type' }).selectOption({ label: '轰趴馆' })
  await op.getByRole('textbox', { name: 'Address' }).fill('1 Console Road')
  await op.getByRole('textbox', { name: 'Area' }).fill('西湖')
  await op.getByRole('textbox', { name: 'Longitude (x)' }).fill('120.15')
  await op.getByRole('textbox', { name: 'Latitude (y)' }).fill('30.28')
  await op.getByRole('textbox', { name: 'Price per person (yuan)' }).fill('60')
  await op.getByLabel('Add photos').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: await png(op) })
  await expect(op.getByRole('img', { name: 'Photo 1' })).toBeVisible()
  await op.getByRole('button', { name: 'Create' }).click()
  await expect(op).toHaveURL(/\/app\/operator\?v=shop&id=\d+$/)
  const shopId = new URL(op.url()).searchParams.get('id')!
  await expect(op.getByRole('heading', { name: `Edit shop ${shopName}`, level: 2 })).toBeVisible()
  await expect(op.getByRole('img', { name: 'Photo 1' })).toBeVisible()

  // A flash sale of it, open now (the form's begin is this minute).
  const title = `Console flash ${Date.now() % 100000}`
  await op.getByRole('button', { name: 'New voucher' }).click()
  const form = op.getByRole('form', { name: 'New voucher' })
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill(title)
  await form.getByRole('textbox', { name: 'Price (yuan)' }).fill('9.9')
  await form.getByRole('textbox', { name: 'Worth (yuan)' }).fill('20')
  await form.getByRole('checkbox', { name: 'Flash sale' }).check()
  await form.getByRole('textbox', { name: 'Stock' }).fill('5')
  await form.getByRole('button', { name: 'Create' }).click()
  const card = op.getByRole('article', { name: title })
  await expect(card.locator('[data-voucher-status]')).toHaveText('On sale')
  await expect(card).toContainText('5 left')
  await audit(op, 'console-shop', info)

  // Its live numbers before anyone buys.
  await card.getByRole('link', { name: 'Live numbers' }).click()
  await expect(op).toHaveURL(/\/app\/operator\?v=sale&id=\d+$/)
  const saleId = new URL(op.url()).searchParams.get('id')!
  const n = (k: string) => op.locator(`[data-n="${k}"]`)
  await expect(n('redisStock')).toHaveText('5')
  await expect(n('persisted')).toHaveText('0')
  await audit(op, 'console-sale', info)

  // A buyer buys it on the shop's page and pays on the provider's page.
  await login(page)
  await page.goto(`/app/shops/${shopId}`)
  await expect(page.getByRole('heading', { name: shopName, level: 1 })).toBeVisible()
  await expect(page.locator('.page.shop')).toHaveAttribute('data-live', 'true')
  await page.getByRole('article', { name: title }).getByRole('button', { name: 'Buy' }).click()
  const order = page.getByRole('region', { name: `Order: ${title}` })
  await expect(order.getByRole('status')).toHaveText('Unpaid', { timeout: 15_000 })
  await payOnProvider(page, order, '支付')
  await expect(order.getByRole('status')).toHaveText('Paid')
  const code = (await order.locator('.voucher-code .code').innerText()).trim()

  // The admin's numbers move on their own (read every 2 s).
  await expect(n('redisStock')).toHaveText('4')
  await expect(n('mysqlStock')).toHaveText('4')
  await expect(n('admitted')).toHaveText('1')
  await expect(n('persisted')).toHaveText('1')
  await expect(op.locator('[data-status-count="PAID"]')).toHaveText('Paid: 1')

  // The shop's orders list it.
  await op.goto(`/app/operator?v=orders&id=${shopId}`)
  await expect(op.getByRole('article', { name: code.replace(/\s/g, '') })).toContainText('Paid')

  // The admin redeems the code the buyer shows (typed as read out, spaces and all).
  await op.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Redeem' }).click()
  await op.getByRole('textbox', { name: /Voucher code/ }).fill(code)
  await op.getByRole('button', { name: 'Redeem' }).click()
  await expect(op.getByText(`Redeemed: ${title} at ${shopName}, now Used.`)).toBeVisible()
  await audit(op, 'console-redeem', info)
  // The buyer sees it used, live.
  await expect(order.getByRole('status')).toHaveText('Used')

  // Every action is in the audit log, newest first, by this admin.
  await op.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Audit log' }).click()
  const actions = op.locator('.op-audit li[data-action]')
  await expect(actions.first()).toContainText('Redeemed an order')
  await expect(op.locator('.op-audit li[data-action="CREATE_VOUCHER"]').filter({ hasText: title })).toHaveCount(1)
  await expect(op.locator('.op-audit li[data-action="CREATE_SHOP"]').filter({ hasText: shopName })).toHaveCount(1)
  await audit(op, 'console-audit', info)

  // The buyer (no admin) opening the console is refused, and so is the API.
  await page.goto('/app/operator')
  await expect(page.getByRole('alert')).toHaveText('This console is for admins only. Your account is not one.')
  await audit(page, 'console-refused', info)
  const buyerToken = (await page.evaluate(() => localStorage.getItem('hmdp.token')))!
  const refused = await gql(`query($v: ID!) { saleNumbers(voucherId: $v) { redisStock } }`, { v: saleId }, buyerToken)
  expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN')
  const redeem = await gql(`mutation($id: ID!) { redeemOrder(orderId: $id) { status } }`, { id: code.replace(/\s/g, '') }, buyerToken)
  expect(redeem.errors?.[0]?.extensions?.code).toBe('FORBIDDEN')

  await context.close()
  guard.check()
})
