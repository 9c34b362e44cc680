import type { Page } from '@playwright/test'
import { test, expect, apiLogin, gql, baseURL, login } from './fixtures'

// Photos come from the server, in the size of their slot: the demo data's
// shops and posts show the server's demo pictures and its users the demo
// avatars (no placeholder, no opt-in to other hosts), and every photo loads
// a sized variant (?w=), in WebP, never the upload as it was uploaded.

/** photoJpeg draws a 1200×1600 photo-like JPEG in the page (about 200 KB). */
async function photoJpeg(page: Page): Promise<Buffer> {
  const url = await page.evaluate(() => {
    const c = document.createElement('canvas')
    c.width = 1200
    c.height = 1600
    const g = c.getContext('2d')!
    const sky = g.createLinearGradient(0, 0, 0, 1600)
    sky.addColorStop(0, '#7ab8e8')
    sky.addColorStop(1, '#f4d9a8')
    g.fillStyle = sky
    g.fillRect(0, 0, 1200, 1600)
    let seed = 7
    const rnd = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647)
    for (let i = 0; i < 400; i++) {
      g.fillStyle = `hsl(${rnd() * 360} 60% ${30 + rnd() * 40}%)`
      g.beginPath()
      g.arc(rnd() * 1200, rnd() * 1600, 10 + rnd() * 60, 0, Math.PI * 2)
      g.fill()
    }
    return c.toDataURL('image/jpeg', 0.92)
  })
  return Buffer.from(url.split(',')[1]!, 'base64')
}

/** upload posts a file to uploadImage (the GraphQL multipart request) and returns its path. */
async function upload(token: string, file: Buffer): Promise<string> {
  const form = new FormData()
  form.set('operations', JSON.stringify({ query: 'mutation($f: Upload!) { uploadImage(file: $f) }', variables: { f: null } }))
  form.set('map', JSON.stringify({ 0: ['variables.f'] }))
  form.set('0', new Blob([new Uint8Array(file)], { type: 'image/jpeg' }), 'photo.jpg')
  const r = await fetch(baseURL() + '/graphql', { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}`, 'GraphQL-Require-Preflight': '1' } })
  const j = (await r.json()) as { data?: { uploadImage: string }; errors?: unknown }
  if (!j.data) throw new Error('upload: ' + JSON.stringify(j.errors))
  return j.data.uploadImage
}

type Transfer = { url: string; type: string; bytes: number }

/** transfers records every /images/ response of the page. */
function transfers(page: Page): Transfer[] {
  const seen: Transfer[] = []
  page.on('response', async (r) => {
    if (!new URL(r.url()).pathname.startsWith('/images/')) return
    const body = await r.body().catch(() => Buffer.alloc(0))
    seen.push({ url: r.url(), type: r.headers()['content-type'] ?? '', bytes: body.length })
  })
  return seen
}

/** expectPhotos checks that every photo slot in scope shows a loaded image, a variant from this server. */
async function expectPhotos(page: Page, scope: string): Promise<number> {
  const slots = page.locator(`${scope} .img.photo`)
  await expect(slots.first()).toBeVisible()
  await expect(page.locator(`${scope} .img.photo.placeholder`), 'photo slots showing a placeholder').toHaveCount(0)
  const n = await slots.count()
  for (let i = 0; i < n; i++) {
    const img = slots.nth(i)
    await img.scrollIntoViewIfNeeded()
    await expect.poll(() => img.evaluate((el) => (el instanceof HTMLImageElement && el.complete ? el.naturalWidth : 0)), `photo ${i + 1} of ${scope} loaded`).toBeGreaterThan(0)
    const src = await img.evaluate((el) => (el as HTMLImageElement).currentSrc)
    expect(src, `photo ${i + 1} of ${scope}`).toMatch(new RegExp(`^${baseURL().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/images/[^?]+\\?w=\\d+$`))
  }
  return n
}

test('home, a shop list and a post show every photo from the server, each a sized WebP variant', async ({ page }) => {
  // A post with a phone-sized upload (1200×1600), liked so it is among the hot posts of the home page.
  const token = await apiLogin()
  const photo = await photoJpeg(page)
  expect(photo.length).toBeGreaterThan(100 * 1024)
  const path = await upload(token, photo)
  const title = `Photos in their size #${Date.now() % 100000}`
  const made = await gql<{ createBlog: { id: string } }>('mutation($in: CreateBlogInput!) { createBlog(input: $in) { id } }', { in: { title, content: 'A big photo.', images: [path] } }, token)
  expect(made.errors).toBeUndefined()
  const id = made.data!.createBlog.id
  expect((await gql('mutation($id: ID!) { setBlogLike(blogId: $id, liked: true) { id } }', { id }, token)).errors).toBeUndefined()

  const seen = transfers(page)
  await page.goto('/app/')
  await expect(page.getByRole('link', { name: title })).toBeVisible()
  await expect(page.getByRole('link', { name: /港式茶餐厅/ })).toBeVisible()
  expect(await expectPhotos(page, '.blog-card')).toBeGreaterThanOrEqual(4)
  const home = seen.filter((t) => t.bytes > 0)
  expect(home.every((t) => t.url.includes('?w=') && t.type === 'image/webp')).toBe(true)
  // The size bound holds for the photos this test knows (the demo posts and
  // its own upload): other tests running meanwhile post noise, which no
  // encoding shrinks.
  const known = home.filter((t) => t.url.includes('/images/demo-') || t.url.includes(path))
  const largest = known.reduce((a, b) => (b.bytes > a.bytes ? b : a))
  expect(largest.url, 'the largest image of the home page').toMatch(/\?w=\d+$/)
  expect(largest.type).toBe('image/webp')
  expect(largest.bytes, `the largest image of the home page (${largest.url})`).toBeLessThanOrEqual(40 * 1024)
  expect(known.some((t) => t.url.includes(path))).toBe(true)

  // A shop list: every shop shows its picture.
  await page.goto('/app/types/1')
  await expect(page.locator('.shop-card').first()).toBeVisible()
  expect(await expectPhotos(page, '.shop-card')).toBeGreaterThanOrEqual(5)

  // A demo post: every photo of its gallery.
  await page.goto('/app/')
  await page.getByRole('link', { name: /港式茶餐厅/ }).click()
  await expect(page).toHaveURL(/\/app\/blogs\/\d+$/)
  expect(await expectPhotos(page, '.gallery')).toBeGreaterThanOrEqual(3)
  // Its author (a demo user, whose icon names a file no server here has) shows the server's demo avatar.
  const avatar = page.locator('.author-row .author .img.avatar')
  await expect(avatar).toBeVisible()
  await expect(page.locator('.author-row .img.avatar.placeholder'), 'the author avatar showing a placeholder').toHaveCount(0)
  await expect.poll(() => avatar.evaluate((el) => (el instanceof HTMLImageElement && el.complete ? el.naturalWidth : 0)), 'the author avatar loaded').toBeGreaterThan(0)
  expect(await avatar.evaluate((el) => (el as HTMLImageElement).currentSrc)).toMatch(/\/images\/demo-avatar-[a-z0-9-]+\.jpg\?w=\d+$/)

  // The post with the upload: the variant for the gallery's width, not the 1200 px original.
  seen.length = 0
  await page.goto(`/app/blogs/${id}`)
  expect(await expectPhotos(page, '.gallery')).toBe(1)
  const shown = seen.find((t) => t.url.includes(path) && t.bytes > 0)
  expect(shown?.type).toBe('image/webp')
  expect(shown!.bytes).toBeLessThan(photo.length / 2)
})

test("a demo user's Me page shows its demo avatar and saves the profile with it unchanged", async ({ page }) => {
  // User 5 of the demo data (可爱多), whose icon is /imgs/icons/user5-icon.png.
  await login(page, '13456789001')
  const avatar = page.getByRole('img', { name: 'My avatar' })
  await expect(avatar).toBeVisible()
  await expect.poll(() => avatar.evaluate((el) => (el instanceof HTMLImageElement && el.complete ? el.naturalWidth : 0)), 'the avatar loaded').toBeGreaterThan(0)
  expect(await avatar.evaluate((el) => (el as HTMLImageElement).currentSrc)).toMatch(/\/images\/demo-avatar-[a-z0-9-]+\.jpg\?w=\d+$/)
  await page.getByText('Edit profile').click()
  await page.getByRole('textbox', { name: 'City' }).fill('杭州')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Saved.')).toBeVisible()
})
