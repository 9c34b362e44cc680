import { test, expect, login, newPhone, readCode } from './fixtures'

test('log in with a code from the server log, then log out', async ({ page }) => {
  const phone = newPhone()
  await page.goto('/app/login')
  // The contract: these names are what the tests (and screen readers) use.
  await expect(page.getByRole('textbox', { name: 'Phone' })).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Code' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send code' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  const nav = page.getByRole('navigation')
  for (const name of ['Home', 'Feed', 'Me']) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible()

  // A wrong code is said in words.
  await page.getByRole('textbox', { name: 'Phone' }).fill(phone)
  await page.getByRole('button', { name: 'Send code' }).click()
  await expect(page.getByText('Code sent')).toBeVisible()
  // The resend countdown replaces the button text.
  await expect(page.getByRole('button', { name: /Resend in \d+ s/ })).toBeDisabled()
  const code = await readCode(phone)
  const wrong = code === '000000' ? '111111' : '000000'
  await page.getByRole('textbox', { name: 'Code' }).fill(wrong)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('Wrong code.')

  await page.getByRole('textbox', { name: 'Code' }).fill(code)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/app\/me$/)
  await expect(page.getByRole('heading', { name: /^user_/ })).toBeVisible()

  // The session survives a reload (token in localStorage).
  await page.reload()
  await expect(page.getByRole('heading', { name: /^user_/ })).toBeVisible()

  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/app\/$/)
  // The home page shows as the logout is sent; the token goes when it lands.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('hmdp.token'))).toBeNull()
  await page.getByRole('navigation').getByRole('link', { name: 'Me', exact: true }).click()
  await expect(page).toHaveURL(/\/app\/login\?redirect=/)
})

test('sending codes too fast shows the wait', async ({ page }) => {
  const phone = await login(page)
  await page.evaluate(() => localStorage.removeItem('hmdp.token'))
  await page.goto('/app/login')
  await page.getByRole('textbox', { name: 'Phone' }).fill(phone)
  await page.getByRole('button', { name: 'Send code' }).click()
  await expect(page.getByRole('alert')).toContainText(/Too many tries\. Please wait \d+ s\./)
})
