import type { Page } from '@playwright/test'
import { test, expect, login } from './fixtures'

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

test('edit the profile with an avatar upload and a password, then log in with the password', async ({ page }) => {
  const phone = await login(page)
  const nick = `Tester ${Date.now() % 100000}`
  await page.getByText('Edit profile').click()
  await page.getByRole('textbox', { name: 'Nickname' }).fill(nick)
  await page.getByRole('textbox', { name: 'City' }).fill('杭州')
  await page.getByLabel('Change avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await avatarPng(page) })
  const preview = page.getByRole('img', { name: 'New avatar' })
  await expect(preview).toHaveAttribute('src', /^\/images\//)
  await page.getByLabel(/New password/).fill('correct horse battery')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Saved.')).toBeVisible()
  await expect(page.getByRole('heading', { name: nick })).toBeVisible()
  const avatar = page.getByRole('img', { name: 'My avatar' })
  await expect.poll(() => avatar.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(256)

  // A fresh load shows what the server kept.
  await page.reload()
  await expect(page.getByRole('heading', { name: nick })).toBeVisible()

  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/app\/$/)
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
  await page.getByRole('button', { name: 'Buy' }).click()
  await expect(page).toHaveURL(/\/app\/login\?redirect=\/shops\/1$/)
  await login(page, undefined, /\/app\/shops\/1$/)
  await expect(page.getByRole('button', { name: 'Buy' })).toBeVisible()
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
  await expect.poll(() => photo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1600)
})
