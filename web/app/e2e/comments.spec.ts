import { test, expect, newUser, audit, gql, apiLogin } from './fixtures'

test('comments: B sees A’s comment live, replies, likes, deletes; the count follows', async ({ browser }, info) => {
  const a = await newUser(browser)
  const b = await newUser(browser)

  // A writes a post (through the page) and stays on it.
  const title = `Comment thread #${Date.now() % 100000}`
  await a.page.getByRole('navigation').getByRole('link', { name: 'Write' }).click()
  await a.page.getByRole('textbox', { name: 'Title' }).fill(title)
  await a.page.getByRole('textbox', { name: 'Text' }).fill('Egg tarts, still warm.')
  await a.page.getByRole('button', { name: 'Publish' }).click()
  await expect(a.page).toHaveURL(/\/app\/blogs\/\d+$/)
  const url = new URL(a.page.url()).pathname
  const comments = (p: typeof a.page) => p.getByRole('region', { name: /^Comments/ })

  // B opens it: no comments yet, its subscription live.
  await b.page.goto(url)
  await expect(b.page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
  await expect(b.page.getByRole('heading', { name: 'Comments (0)' })).toBeVisible()
  await expect(b.page.getByText('No comments yet')).toBeVisible()
  await expect(comments(b.page)).toHaveAttribute('data-live', 'true')
  await expect(comments(a.page)).toHaveAttribute('data-live', 'true')
  await b.page.waitForTimeout(500) // the subscribe message reaches the server
  const navigations: string[] = []
  b.page.on('framenavigated', (f) => navigations.push(f.url()))

  // A comments; B sees it without a reload, the count with it.
  await a.page.getByRole('textbox', { name: 'Write a comment' }).fill('  Best tarts in town.  ')
  await a.page.getByRole('button', { name: 'Send' }).click()
  await expect(a.page.getByRole('heading', { name: 'Comments (1)' })).toBeVisible()
  await expect(a.page.getByRole('textbox', { name: 'Write a comment' })).toHaveValue('')
  const bTop = comments(b.page).locator('.comment-list > .comment').filter({ hasText: 'Best tarts in town.' })
  await expect(bTop).toBeVisible({ timeout: 15_000 })
  await expect(bTop).toContainText(a.name)
  await expect(bTop.locator('.c-badge')).toHaveText('Author')
  await expect(b.page.getByRole('heading', { name: 'Comments (1)' })).toBeVisible()
  expect(navigations, 'B did not navigate').toEqual([])
  // B may not delete A's comment.
  await expect(bTop.getByRole('button', { name: 'Delete' })).toHaveCount(0)

  // B likes it; the like is kept.
  await bTop.locator(':scope > .c-body > .c-actions').getByRole('button', { name: 'Like 0', exact: true }).click()
  await expect(bTop.locator(':scope > .c-body > .c-actions').getByRole('button', { name: 'Like 1', exact: true })).toHaveAttribute('aria-pressed', 'true')

  // B replies; A sees the reply nested under the comment, live.
  await bTop.locator(':scope > .c-body > .c-actions').getByRole('button', { name: 'Reply' }).click()
  await expect(b.page.getByText(`Replying to ${a.name}`)).toBeVisible()
  const replyBox = b.page.getByRole('textbox', { name: `Reply to ${a.name}` })
  await expect(replyBox).toBeFocused()
  await replyBox.fill('Agreed, the crust!')
  await b.page.getByRole('button', { name: 'Send' }).click()
  await expect(bTop.getByRole('list', { name: `Replies to ${a.name}` }).getByText('Agreed, the crust!')).toBeVisible()
  await expect(b.page.getByRole('heading', { name: 'Comments (2)' })).toBeVisible()
  const aTop = comments(a.page).locator('.comment-list > .comment').filter({ hasText: 'Best tarts in town.' })
  const aReply = aTop.locator('.reply').filter({ hasText: 'Agreed, the crust!' })
  await expect(aReply).toBeVisible({ timeout: 15_000 })
  await expect(aReply).toContainText(b.name)
  await expect(a.page.getByRole('heading', { name: 'Comments (2)' })).toBeVisible()

  // A answers the reply: "A replied to B", threaded under the same comment.
  await aReply.getByRole('button', { name: 'Reply' }).click()
  await a.page.getByRole('textbox', { name: `Reply to ${b.name}` }).fill('Come on Sunday.')
  await a.page.getByRole('button', { name: 'Send' }).click()
  const aAnswer = aTop.locator('.reply').filter({ hasText: 'Come on Sunday.' })
  await expect(aAnswer).toContainText(new RegExp(`${a.name}\\s*Author replied to ${b.name}: Come on Sunday.`))
  await expect(a.page.getByRole('heading', { name: 'Comments (3)' })).toBeVisible()
  await expect(bTop.locator('.reply').filter({ hasText: 'Come on Sunday.' })).toBeVisible({ timeout: 15_000 })
  await expect(b.page.getByRole('heading', { name: 'Comments (3)' })).toBeVisible()

  // A likes B's reply.
  await aReply.getByRole('button', { name: 'Like 0', exact: true }).click()
  await expect(aReply.getByRole('button', { name: 'Like 1', exact: true })).toHaveAttribute('aria-pressed', 'true')

  // After a reload, B sees the same thread, counts and its own like.
  await b.page.reload()
  await expect(b.page.getByRole('heading', { name: 'Comments (3)' })).toBeVisible()
  await expect(bTop.locator(':scope > .c-body > .c-actions').getByRole('button', { name: 'Like 1', exact: true })).toHaveAttribute('aria-pressed', 'true')
  await expect(bTop.locator('.reply')).toHaveCount(2)
  await expect(bTop.locator('.reply').filter({ hasText: 'Agreed' }).getByRole('button', { name: 'Like 1', exact: true })).toHaveAttribute('aria-pressed', 'false')
  await audit(b.page, 'blog-comments', info)

  // B deletes its own reply (it can delete that one, not A's answer).
  const bReply = bTop.locator('.reply').filter({ hasText: 'Agreed, the crust!' })
  await expect(bTop.locator('.reply').filter({ hasText: 'Come on Sunday.' }).getByRole('button', { name: 'Delete' })).toHaveCount(0)
  await bReply.getByRole('button', { name: 'Delete' }).click()
  await bReply.getByRole('button', { name: 'Delete it' }).click()
  await expect(bReply).toHaveCount(0)
  await expect(b.page.getByRole('heading', { name: 'Comments (2)' })).toBeVisible()

  // A, the post's author, may delete any comment: its top-level comment
  // stays, marked deleted, while a reply hangs under it.
  await a.page.reload()
  await expect(a.page.getByRole('heading', { name: 'Comments (2)' })).toBeVisible()
  const topId = await aTop.getAttribute('data-id')
  const aGone = comments(a.page).locator(`.comment-list > .comment[data-id="${topId}"]`)
  await aGone.locator(':scope > .c-body > .c-actions').getByRole('button', { name: 'Delete' }).click()
  await aGone.locator(':scope > .c-body > .c-actions').getByRole('button', { name: 'Delete it' }).click()
  await expect(aGone.getByText('This comment was deleted.')).toBeVisible()
  await expect(a.page.getByRole('heading', { name: 'Comments (1)' })).toBeVisible()
  await aGone.locator('.reply').getByRole('button', { name: 'Delete' }).click()
  await aGone.locator('.reply').getByRole('button', { name: 'Delete it' }).click()
  await expect(a.page.locator('.comment-list > .comment')).toHaveCount(0)
  await expect(a.page.getByRole('heading', { name: 'Comments (0)' })).toBeVisible()

  // The server agrees.
  const id = url.split('/').pop()!
  const r = await gql<{ blog: { comments: number } }>('query($id: ID!) { blog(id: $id) { comments } }', { id })
  expect(r.data?.blog.comments).toBe(0)

  a.guard.check()
  b.guard.check()
  await a.context.close()
  await b.context.close()
})

test('comments: the server’s word on an empty comment; a visitor is asked to log in', async ({ page }) => {
  // A post of someone else, with many comments: paging of comments and replies.
  const token = await apiLogin()
  const blog = await gql<{ createBlog: { id: string } }>('mutation { createBlog(input: { title: "Paged", content: "x" }) { id } }', {}, token)
  const id = blog.data!.createBlog.id
  const top = await gql<{ addComment: { id: string } }>('mutation($b: ID!) { addComment(blogId: $b, content: "first") { id } }', { b: id }, token)
  for (let i = 1; i <= 5; i++) {
    const r = await gql('mutation($b: ID!, $r: ID) { addComment(blogId: $b, content: $c, replyTo: $r) { id } }'.replace('$c', `"reply ${i}"`), { b: id, r: top.data!.addComment.id }, token)
    expect(r.errors).toBeUndefined()
  }
  await page.goto(`/app/blogs/${id}`)
  await expect(page.getByRole('heading', { name: 'Comments (6)' })).toBeVisible()
  await expect(page.locator('.reply')).toHaveCount(3)
  await page.getByRole('button', { name: 'More replies (2)' }).click()
  await expect(page.locator('.reply')).toHaveCount(5)
  await expect(page.getByRole('button', { name: /More replies/ })).toHaveCount(0)
  await page.getByRole('link', { name: 'Log in to comment' }).click()
  await expect(page).toHaveURL(/\/app\/login\?redirect=/)

  // Logged in (the token of the post's author, set as the login page would: no second code sent).
  await page.evaluate((tk) => localStorage.setItem('hmdp.token', tk), token)
  await page.goto(`/app/blogs/${id}`)
  await page.getByRole('textbox', { name: 'Write a comment' }).fill('   ')
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled()
})
