import type { Page, WebSocketRoute } from '@playwright/test'
import { test, expect, newUser, shot } from './fixtures'

/** A real PNG drawn by the browser, so the uploaded image also displays. */
async function png(page: Page): Promise<Buffer> {
  const url = await page.evaluate(() => {
    const c = document.createElement('canvas')
    c.width = 640
    c.height = 480
    const g = c.getContext('2d')!
    const grad = g.createLinearGradient(0, 0, 640, 480)
    grad.addColorStop(0, '#ff6633')
    grad.addColorStop(1, '#2b7de9')
    g.fillStyle = grad
    g.fillRect(0, 0, 640, 480)
    for (let i = 0; i < 400; i++) {
      g.fillStyle = `hsl(${(i * 37) % 360} 80% 60% / 0.5)`
      g.beginPath()
      g.arc((i * 97) % 640, (i * 53) % 480, 8 + (i % 20), 0, Math.PI * 2)
      g.fill()
    }
    return c.toDataURL('image/png')
  })
  return Buffer.from(url.split(',')[1]!, 'base64')
}

test('A follows B; B posts a blog with a photo; A sees it live in the feed and likes it', async ({ browser }) => {
  const a = await newUser(browser)
  const b = await newUser(browser)

  // A follows B on B's page.
  await a.page.goto(`/app/users/${b.id}`)
  await expect(a.page.getByRole('heading', { name: b.name, level: 1 })).toBeVisible()
  await a.page.getByRole('button', { name: 'Follow', exact: true }).click()
  await expect(a.page.getByRole('button', { name: 'Unfollow' })).toBeVisible()
  await expect(a.page.getByText(/^1 follower · 0 following$/)).toBeVisible()

  // A waits on the feed, its subscription open.
  await a.page.getByRole('navigation').getByRole('link', { name: 'Feed', exact: true }).click()
  await expect(a.page.locator('.page.feed')).toHaveAttribute('data-live', 'true')
  await expect(a.page.getByText('No posts yet')).toBeVisible()
  const navigations: string[] = []
  a.page.on('framenavigated', (f) => navigations.push(f.url()))

  // B writes a post with an uploaded photo and a shop picked by search.
  const title = `Pineapple buns at 103 #${Date.now() % 100000}`
  await b.page.getByRole('navigation').getByRole('link', { name: 'Write' }).click()
  await b.page.getByRole('textbox', { name: 'Title' }).fill(title)
  await b.page.getByRole('textbox', { name: 'Text' }).fill('Pineapple buns and milk tea, 30 yuan each.')
  await b.page.getByLabel('Add photos').setInputFiles({ name: 'lunch.png', mimeType: 'image/png', buffer: await png(b.page) })
  await expect(b.page.getByText('Uploaded')).toBeVisible()
  await b.page.getByRole('searchbox', { name: 'Search a shop' }).fill('茶餐厅')
  await b.page.getByRole('button', { name: 'Search' }).click()
  await b.page.getByRole('button', { name: /103茶餐厅/ }).click()
  await expect(b.page.getByText('📍 103茶餐厅')).toBeVisible()
  await shot(b.page, 'write-filled')
  await b.page.getByRole('button', { name: 'Publish' }).click()
  await expect(b.page).toHaveURL(/\/app\/blogs\/\d+$/)
  await expect(b.page.getByRole('heading', { name: title })).toBeVisible()
  const photo = b.page.getByRole('img', { name: 'Photo 1' })
  await expect(photo).toBeVisible()
  // The upload as stored (its src; the slot loads a sized variant of it).
  await expect.poll(() => photo.evaluate(async (img) => (await createImageBitmap(await (await fetch(img.getAttribute('src')!)).blob())).width)).toBe(640)

  // A's feed shows it without a reload.
  const bar = a.page.getByRole('button', { name: '1 new post' })
  await expect(bar).toBeVisible({ timeout: 15_000 })
  await shot(a.page, 'feed-new-post')
  await bar.click()
  const link = a.page.getByRole('link', { name: title })
  await expect(link).toBeVisible()
  expect(navigations, 'no reload').toEqual([])

  // A likes it and is among its likers.
  await link.click()
  await expect(a.page.getByRole('heading', { name: title })).toBeVisible()
  await a.page.getByRole('button', { name: 'Like' }).click()
  await expect(a.page.getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'true')
  await expect(a.page.getByText('1 like', { exact: true })).toBeVisible()
  await expect(a.page.getByRole('list', { name: 'Liked by' }).getByRole('img', { name: a.name })).toBeVisible()
  await shot(a.page, 'blog-liked')

  // B sees the like and the liker after a fresh load.
  await b.page.reload()
  await expect(b.page.getByRole('list', { name: 'Liked by' }).getByRole('img', { name: a.name })).toBeVisible()

  // Both follow the demo user 小鱼同学 (id 1): A sees it among common follows on B's page.
  for (const u of [a, b]) {
    await u.page.goto('/app/users/1')
    await u.page.getByRole('button', { name: 'Follow', exact: true }).click()
    await expect(u.page.getByRole('button', { name: 'Unfollow' })).toBeVisible()
  }
  await a.page.goto(`/app/users/${b.id}`)
  const common = a.page.getByRole('region', { name: 'You both follow' })
  await expect(common.getByRole('link', { name: '小鱼同学' })).toBeVisible()
  // And B's post is on B's page.
  await expect(a.page.getByRole('link', { name: title })).toBeVisible()

  a.guard.check()
  b.guard.check()
  await a.context.close()
  await b.context.close()
})

test('posts published while the feed socket was down show up after it reconnects', async ({ browser }) => {
  // A's subscription socket goes through Playwright, which can drop it and
  // refuse new ones for a while (as during a server restart).
  const sockets: WebSocketRoute[] = []
  let down = false
  const a = await newUser(browser, (c) =>
    c.routeWebSocket(/\/graphql$/, (ws) => {
      if (down) return ws.close({ code: 1001, reason: 'going away' })
      sockets.push(ws)
      ws.connectToServer()
    }),
  )
  const b = await newUser(browser)
  await a.page.goto(`/app/users/${b.id}`)
  await a.page.getByRole('button', { name: 'Follow', exact: true }).click()
  await expect(a.page.getByRole('button', { name: 'Unfollow' })).toBeVisible()
  await a.page.getByRole('navigation').getByRole('link', { name: 'Feed', exact: true }).click()
  const feed = a.page.locator('.page.feed')
  await expect(feed).toHaveAttribute('data-live', 'true')

  down = true
  for (const ws of sockets.splice(0)) await ws.close({ code: 1001, reason: 'going away' })
  await expect(feed).toHaveAttribute('data-live', 'false')
  const title = `While you were away #${Date.now() % 100000}`
  await b.page.getByRole('navigation').getByRole('link', { name: 'Write' }).click()
  await b.page.getByRole('textbox', { name: 'Title' }).fill(title)
  await b.page.getByRole('textbox', { name: 'Text' }).fill('Posted while the socket was down.')
  await b.page.getByRole('button', { name: 'Publish' }).click()
  await expect(b.page.getByRole('heading', { name: title })).toBeVisible()

  down = false
  await expect(feed).toHaveAttribute('data-live', 'true', { timeout: 30_000 })
  await a.page.getByRole('button', { name: '1 new post' }).click()
  await expect(a.page.getByRole('link', { name: title })).toBeVisible()

  a.guard.check()
  b.guard.check()
  await a.context.close()
  await b.context.close()
})
