// node scripts/icons.mjs: draws the app's icons (public/icons/*.png, for the
// web app manifest and iOS) from the logo's SVG with the test browser, so
// they can be made again after a change of the logo or colour. Chromium is
// /usr/bin/chromium unless CHROMIUM says otherwise.
import { chromium } from '@playwright/test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'

const H = '<path d="M18 44V20h8v9h12v-9h8v24h-8v-8H26v8z" fill="#fff"/>'
// "any": the rounded tile of the favicon. "maskable": a full-bleed square
// with the letter inside the central 80 % safe zone, which any mask keeps.
const any = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#c2410c"/>${H}</svg>`
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#c2410c"/><g transform="translate(32 32) scale(0.72) translate(-32 -32)">${H}</g></svg>`

const out = resolve(import.meta.dirname, '../public/icons')
mkdirSync(out, { recursive: true })
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] })
const page = await browser.newPage()
for (const [name, svg] of [['icon', any], ['maskable', maskable]]) {
  for (const size of [192, 512]) {
    await page.setViewportSize({ width: size, height: size })
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`)
    await page.screenshot({ path: resolve(out, `${name}-${size}.png`), omitBackground: true })
  }
}
await page.setViewportSize({ width: 180, height: 180 })
await page.setContent(`<html><body style="margin:0">${maskable.replace('<svg ', '<svg width="180" height="180" ')}</body></html>`)
await page.screenshot({ path: resolve(out, 'apple-touch-icon-180.png') })
await browser.close()
