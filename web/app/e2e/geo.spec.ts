import { test, expect } from './fixtures'

test.describe('near the demo shops', () => {
  // Next to 新白鹿餐厅(运河上街店) (120.151954, 30.32497).
  test.use({ geolocation: { longitude: 120.1519, latitude: 30.3249 }, permissions: ['geolocation'] })

  test('shops of a type are sorted by distance from the viewer', async ({ page }) => {
    await page.goto('/app/types/1')
    await expect(page.getByText('Distances from where you are.')).toBeVisible()
    const first = page.locator('.shop-card').first()
    await expect(first.getByRole('link')).toHaveText('新白鹿餐厅(运河上街店)')
    await expect(first.getByText(/^\d+ m$/)).toBeVisible()
    // Sorted: distances never decrease down the list.
    const metres = await page.locator('.shop-card .distance').allTextContents()
    const values = metres.map((t) => (t.endsWith(' km') ? parseFloat(t) * 1000 : parseFloat(t)))
    expect(values).toEqual([...values].sort((a, b) => a - b))
  })
})

test.describe('far from every shop', () => {
  test.use({ geolocation: { longitude: 116.397, latitude: 39.909 }, permissions: ['geolocation'] })

  test('falls back to the demo city centre', async ({ page }) => {
    await page.goto('/app/types/2')
    await expect(page.getByText('No shops of this type near you: nearest the demo city centre first.')).toBeVisible()
    await expect(page.locator('.shop-card').first()).toBeVisible()
    // Distances from the demo centre are not the viewer's: none is shown (no "0 m").
    await expect(page.locator('.shop-card .distance')).toHaveCount(0)
  })
})
