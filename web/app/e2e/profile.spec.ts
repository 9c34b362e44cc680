import type { Page } from '@playwright/test'
import { test, expect, login, logLines, readCode, audit } from './fixtures'

async function avatarPng(page: Page): Promise<Buffer> {
  const url = await page.evaluate(() => {
    const c = document.createElement('canvas')
    c.width = c.height = 256
    const g = c.getContext('2d')!
    g.fillStyle = '#2b7de9'
    g.fillRect(0, 0, 256, 256)
    g.fillStyle = '#fff'
    g.beginPath()
    g.arc(128, 100, 50, 0, Math.PI * 2)
    g.fill()
    g.fillRect(48, 170, 160, 86)
    return c.toDataURL('image/png')
  })
  return Buffer.from(url.split(',')[1]!, 'base64')
}

test('edit the profile with an avatar upload and a password, then log in with the password', async ({ page }, info) => {
  // A first password needs a fresh login code, and the server sends one code
  // per phone per minute: the test waits out the minute after the login's code.
  test.setTimeout(150_000)
  const phone = await login(page)
  const nick = `Tester ${Date.now() % 100000}`
  await page.getByText('Edit profile').click()
  await page.getByRole('textbox', { name: 'Nickname' }).fill(nick)
  await page.getByRole('textbox', { name: 'City' }).fill('杭州')
  await page.getByLabel('Change avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await avatarPng(page) })
  const preview = page.getByRole('img', { name: 'New avatar' })
  await expect(preview).toHaveAttribute('src', /^\/images\//)
  await page.getByLabel(/New password/).fill('correct horse battery')

  // A new password asks to confirm it is you, with the phone of the login filled in.
  const confirm = page.getByRole('group', { name: 'Confirm it is you' })
  await expect(confirm.getByRole('textbox', { name: 'Your phone' })).toHaveValue(phone)
  await expect(confirm.getByRole('textbox', { name: 'Code' })).toBeVisible()
  await expect(confirm.getByLabel(/Current password/)).toBeVisible()
  // Saving without a code (or the current password) says so next to the code.
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(confirm.getByText('Enter a code sent to your phone, or your current password.')).toBeVisible()
  await expect(confirm.getByRole('textbox', { name: 'Code' })).toHaveAttribute('aria-invalid', 'true')

  // The login's code went to this phone moments ago: the server refuses
  // another for a minute, and the form says so and counts the wait down.
  await confirm.getByRole('button', { name: 'Send code' }).click()
  await expect(confirm.getByText(/less than a minute ago/)).toBeVisible()
  await expect(confirm.getByRole('button', { name: /Resend in \d+ s/ })).toBeDisabled()
  await confirm.scrollIntoViewIfNeeded()
  await audit(page, 'me-password', info)
  const send = confirm.getByRole('button', { name: 'Send code' })
  await expect(send).toBeEnabled({ timeout: 70_000 })
  await expect(confirm.getByText(/less than a minute ago/)).toHaveCount(0)
  const mark = logLines()
  await send.click()
  await expect(confirm.getByText(/^Code sent\./)).toBeVisible()
  const code = await readCode(phone, mark)
  // A wrong code is said next to the code; the right one still works after it.
  await confirm.getByRole('textbox', { name: 'Code' }).fill(code === '000000' ? '111111' : '000000')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(confirm.getByRole('alert')).toHaveText('Wrong code.')
  await confirm.getByRole('textbox', { name: 'Code' }).fill(code)
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Saved.')).toBeVisible()
  // The password is set: the form no longer asks to confirm one.
  await expect(confirm).toHaveCount(0)
  await expect(page.getByLabel(/New password/)).toHaveValue('')
  await expect(page.getByRole('heading', { name: nick })).toBeVisible()
  const avatar = page.getByRole('img', { name: 'My avatar' })
  // The upload as stored (its src; the slot loads a sized variant of it).
  await expect.poll(() => avatar.evaluate(async (img) => (await createImageBitmap(await (await fetch(img.getAttribute('src')!)).blob())).width)).toBe(256)

  // A fresh load shows what the server kept.
  await page.reload()
  await expect(page.getByRole('heading', { name: nick })).toBeVisible()

  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/app\/$/)
  // The phone kept for the profile form goes with the session.
  // The home page shows as the logout is sent; the token goes when it lands.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('hmdp.phone'))).toBeNull()
  await page.goto('/app/login')
  await page.getByRole('button', { name: 'Use a password instead' }).click()
  await page.getByRole('textbox', { name: 'Phone' }).fill(phone)
  await page.getByLabel('Password').fill('wrong password!')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('Wrong phone or password.')
  await page.getByLabel('Password').fill('correct horse battery')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/app\/me$/)
  await expect(page.getByRole('heading', { name: nick })).toBeVisible()
})

test('Buy when logged out goes to the login page and back', async ({ page }) => {
  await page.goto('/app/shops/1')
  await page.getByRole('article', { name: '100元代金券' }).getByRole('button', { name: 'Buy' }).click()
  await expect(page).toHaveURL(/\/app\/login\?redirect=\/shops\/1$/)
  await login(page, undefined, /\/app\/shops\/1$/)
  await expect(page.getByRole('article', { name: '100元代金券' }).getByRole('button', { name: 'Buy' })).toBeVisible()
})

test('write a text-only post, find it under My posts, delete it', async ({ page }) => {
  await login(page)
  const title = `Just words #${Date.now() % 100000}`
  await page.getByRole('navigation').getByRole('link', { name: 'Write' }).click()
  // Empty fields are said before anything is sent.
  await page.getByRole('button', { name: 'Publish' }).click()
  await expect(page.getByText('Required.')).toHaveCount(2)
  await page.getByRole('textbox', { name: 'Title' }).fill(title)
  await page.getByRole('textbox', { name: 'Text' }).fill('No photo this time.')
  await page.getByRole('button', { name: 'Publish' }).click()
  await expect(page.getByRole('heading', { name: title })).toBeVisible()
  await page.getByRole('navigation').getByRole('link', { name: 'Me', exact: true }).click()
  await page.getByRole('tab', { name: 'My posts' }).click()
  await page.getByRole('link', { name: title }).click()
  await page.getByRole('button', { name: 'Delete post' }).click()
  await page.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(page).toHaveURL(/\/app\/me$/)
  await page.getByRole('tab', { name: 'My posts' }).click()
  await expect(page.getByText('No posts yet.')).toBeVisible()
  await expect(page.getByRole('link', { name: title })).toHaveCount(0)
})

test('a photo over 5 MB is shrunk in the browser before upload', async ({ page }) => {
  await login(page)
  await page.getByRole('navigation').getByRole('link', { name: 'Write' }).click()
  // 2000×1500 of noise: a PNG of about 10 MB, more than the server takes.
  const big = await page.evaluate(async () => {
    const c = document.createElement('canvas')
    c.width = 2000
    c.height = 1500
    const g = c.getContext('2d')!
    const img = g.createImageData(2000, 1500)
    for (let i = 0; i < img.data.length; i++) img.data[i] = i % 4 === 3 ? 255 : (Math.random() * 256) | 0
    g.putImageData(img, 0, 0)
    const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'))
    const bytes = new Uint8Array(await blob.arrayBuffer())
    let s = ''
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
    return btoa(s)
  })
  const buffer = Buffer.from(big, 'base64')
  expect(buffer.length).toBeGreaterThan(5 * 1024 * 1024)
  await page.getByRole('textbox', { name: 'Title' }).fill('Noise')
  await page.getByRole('textbox', { name: 'Text' }).fill('A very big photo.')
  await page.getByLabel('Add photos').setInputFiles({ name: 'noise.png', mimeType: 'image/png', buffer })
  await expect(page.getByText('Uploaded')).toBeVisible({ timeout: 20_000 })
  await page.getByRole('button', { name: 'Publish' }).click()
  const photo = page.getByRole('img', { name: 'Photo 1' })
  await expect(photo).toHaveAttribute('src', /^\/images\/[0-9a-f]{32}\.jpg$/)
  // The upload as stored (its src; the slot loads a sized variant of it).
  await expect.poll(() => photo.evaluate(async (img) => (await createImageBitmap(await (await fetch(img.getAttribute('src')!)).blob())).width)).toBe(1600)
})
