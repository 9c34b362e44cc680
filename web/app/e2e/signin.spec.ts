import { test, expect, login } from './fixtures'

test('sign in on the calendar', async ({ page }) => {
  await login(page)
  const button = page.getByRole('button', { name: 'Sign in', exact: true })
  await expect(button).toBeEnabled()
  await expect(page.getByText('0-day streak')).toBeVisible()
  await button.click()
  await expect(page.getByRole('button', { name: 'Signed in today' })).toBeDisabled()
  await expect(page.getByText('1-day streak')).toBeVisible()
  const today = page.getByRole('cell').filter({ has: page.locator('.visually-hidden') })
  await expect(today).toHaveCount(1)
  await expect(today).toContainText('(signed in)')
  // Still signed after a reload.
  await page.reload()
  await expect(page.getByRole('button', { name: 'Signed in today' })).toBeDisabled()
})
