import { test, expect, apiLogin, gql, shot, adminLogin } from './fixtures'

test('the shop page lists posts about the shop, newest or most liked first, more on demand, each linking to the post', async ({ page }) => {
  const author = await apiLogin()
  const admin = await adminLogin()
  const ids: string[] = []
  for (let i = 1; i <= 5; i++) {
    const r = await gql<{ createBlog: { id: string } }>('mutation($in: CreateBlogInput!) { createBlog(input: $in) { id } }', {
      in: { title: `KTV night ${i}`, content: `Post ${i} about this shop.`, shopId: '13' },
    }, author)
    expect(r.errors).toBeUndefined()
    ids.push(r.data!.createBlog.id)
  }
  const like = async (id: string, token: string) =>
    expect((await gql('mutation($id: ID!) { setBlogLike(blogId: $id, liked: true) { id } }', { id }, token)).errors).toBeUndefined()
  await like(ids[1]!, author) // KTV night 2: 2 likes
  await like(ids[1]!, admin)
  await like(ids[3]!, admin) // KTV night 4: 1 like

  // Anyone may read them (not logged in here).
  await page.goto('/app/shops/13')
  const posts = page.getByRole('region', { name: 'Posts about this shop' })
  const titles = () => posts.locator('.blog-card .title').allTextContents()
  const order = posts.getByRole('group', { name: 'Sort posts' })
  await expect(order.getByRole('button', { name: 'Newest' })).toHaveAttribute('aria-pressed', 'true')
  await expect.poll(titles).toEqual(['KTV night 5', 'KTV night 4', 'KTV night 3', 'KTV night 2'])
  await posts.getByRole('button', { name: 'More posts' }).click()
  await expect.poll(titles).toEqual(['KTV night 5', 'KTV night 4', 'KTV night 3', 'KTV night 2', 'KTV night 1'])
  await expect(posts.getByRole('button', { name: 'More posts' })).toHaveCount(0)

  // 最热: most liked first, ties newest first.
  await order.getByRole('button', { name: 'Most liked' }).click()
  await expect(order.getByRole('button', { name: 'Most liked' })).toHaveAttribute('aria-pressed', 'true')
  await expect.poll(titles).toEqual(['KTV night 2', 'KTV night 4', 'KTV night 5', 'KTV night 3'])
  await expect(posts.getByRole('article').first().getByText('2 likes')).toHaveCount(1)
  await posts.getByRole('button', { name: 'More posts' }).click()
  await expect.poll(titles).toEqual(['KTV night 2', 'KTV night 4', 'KTV night 5', 'KTV night 3', 'KTV night 1'])
  await posts.evaluate((el) => el.scrollIntoView({ block: 'start' }))
  await page.evaluate(() => window.scrollBy(0, -70)) // below the sticky header
  await shot(page, 'shop-posts')

  // Each links to its post.
  await posts.getByRole('link', { name: /KTV night 4/ }).first().click()
  await expect(page).toHaveURL(new RegExp(`/app/blogs/${ids[3]}$`))
  await expect(page.getByRole('heading', { name: 'KTV night 4', level: 1 })).toBeVisible()

  // A shop without posts says so.
  await page.goto('/app/shops/14')
  await expect(page.getByRole('region', { name: 'Posts about this shop' }).getByText('No posts about this shop yet.')).toBeVisible()
})
