import { test, expect, apiLogin, gql, login, shot } from './fixtures'

type Score = { score: number; comments: number }

/** expected is a shop's score and review count after ratings of stars on its numbers before (tenths, half up). */
function expected(before: Score, ...stars: number[]): Score {
  let total = before.score * before.comments
  for (const s of stars) total += 10 * s
  const n = before.comments + stars.length
  return { score: Math.floor((2 * total + n) / (2 * n)), comments: n }
}

test('a post rates its shop: the shop page shows the new score, count and the review with its stars, newest, highest or lowest first', async ({ page }) => {
  const shop = (await gql<{ shop: Score }>('{ shop(id: "1") { score comments } }')).data!.shop
  const stamp = Date.now() % 100000

  // Two other users review shop 1 through the API: 2 and 5 stars.
  for (const [stars, title] of [[2, `Too salty #${stamp}`], [5, `Best milk tea #${stamp}`]] as const) {
    const r = await gql('mutation($in: CreateBlogInput!) { createBlog(input: $in) { id } }', {
      in: { title, content: `${stars} stars from me.`, shopId: '1', stars },
    }, await apiLogin())
    expect(r.errors).toBeUndefined()
  }

  // A user writes a post about the shop with 4 stars.
  await login(page)
  const mine = `Pineapple bun #${stamp}`
  await page.getByRole('navigation').getByRole('link', { name: 'Write' }).click()
  await page.getByRole('textbox', { name: 'Title' }).fill(mine)
  await page.getByRole('textbox', { name: 'Text' }).fill('Crisp top, warm butter. Four stars.')
  await expect(page.getByRole('group', { name: 'Your rating of the shop (optional)' })).toHaveCount(0) // no shop yet
  await page.getByRole('searchbox', { name: 'Search a shop' }).fill('茶餐厅')
  await page.getByRole('button', { name: 'Search' }).click()
  await page.getByRole('button', { name: /103茶餐厅/ }).click()
  await expect(page.getByRole('searchbox', { name: 'Search a shop' })).toHaveCount(0) // picked: no search
  const picker = page.getByRole('group', { name: 'Your rating of the shop (optional)' })
  await picker.getByRole('radio', { name: '4 stars' }).check()
  await expect(picker.getByRole('radio', { name: '4 stars' })).toBeChecked()
  await shot(page, 'write-stars')
  await page.getByRole('button', { name: 'Publish' }).click()
  await expect(page).toHaveURL(/\/app\/blogs\/\d+$/)

  // The shop page: the new score and count, and the review newest first.
  const after = expected(shop, 2, 5, 4)
  await page.goto('/app/shops/1')
  await expect(page.getByRole('img', { name: `Rated ${(after.score / 10).toFixed(1)} out of 5` }).first()).toBeVisible()
  await expect(page.getByText(`${after.comments} reviews`)).toBeVisible()
  const reviews = page.getByRole('region', { name: 'Ratings & reviews' })
  const items = reviews.locator('li.review')
  const listed = async () =>
    (await items.evaluateAll((els) => els.map((e) => `${e.querySelector('.title')?.textContent?.trim()}:${e.getAttribute('data-stars')}`)))
      .filter((s) => s.includes(`#${stamp}`))
  const order = reviews.getByRole('group', { name: 'Sort reviews' })
  await expect(order.getByRole('button', { name: 'Newest' })).toHaveAttribute('aria-pressed', 'true')
  await expect.poll(listed).toEqual([`${mine}:4`, `Best milk tea #${stamp}:5`, `Too salty #${stamp}:2`])
  await expect(items.first().getByRole('img', { name: '4 stars' })).toBeVisible()
  await reviews.evaluate((el) => el.scrollIntoView({ block: 'start' }))
  await page.evaluate(() => window.scrollBy(0, -70)) // below the sticky header
  await shot(page, 'shop-reviews')

  await order.getByRole('button', { name: 'Highest' }).click()
  await expect(order.getByRole('button', { name: 'Highest' })).toHaveAttribute('aria-pressed', 'true')
  await expect.poll(listed).toEqual([`Best milk tea #${stamp}:5`, `${mine}:4`, `Too salty #${stamp}:2`])
  await order.getByRole('button', { name: 'Lowest' }).click()
  await expect.poll(listed).toEqual([`Too salty #${stamp}:2`, `${mine}:4`, `Best milk tea #${stamp}:5`])

  // The author changes the rating on the shop page: the score moves, the count stays, the review shows it.
  const changed = expected(shop, 2, 5, 1)
  await reviews.getByRole('group', { name: 'Rate this shop' }).getByRole('radio', { name: '1 star', exact: true }).check()
  await expect(page.getByRole('img', { name: `Rated ${(changed.score / 10).toFixed(1)} out of 5` }).first()).toBeVisible()
  await expect(page.getByText(`${changed.comments} reviews`)).toBeVisible()
  await expect.poll(listed).toEqual([`${mine}:1`, `Too salty #${stamp}:2`, `Best milk tea #${stamp}:5`])

  // Read again from the server, as anyone would.
  await page.reload()
  await expect(page.getByRole('img', { name: `Rated ${(changed.score / 10).toFixed(1)} out of 5` }).first()).toBeVisible()
  await expect(page.getByText(`${changed.comments} reviews`)).toBeVisible()
})

test('the shop page asks an anonymous visitor to log in to rate', async ({ page }) => {
  await page.goto('/app/shops/2')
  const reviews = page.getByRole('region', { name: 'Ratings & reviews' })
  // click, not check: the radio leads to the login page and never becomes
  // checked, which check() would wait for (it timed out once under load).
  await reviews.getByRole('group', { name: 'Log in to rate this shop' }).getByRole('radio', { name: '3 stars' }).click()
  await expect(page).toHaveURL(/\/app\/login/)
})
