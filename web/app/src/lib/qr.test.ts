import { describe, expect, it } from 'vitest'
import jsQR from 'jsqr'
import { qrModules, QUIET } from './qr'

// Draws the modules (quiet zone included) as RGBA pixels, scale px a module.
function raster(modules: boolean[][], scale = 4) {
  const n = modules.length + 2 * QUIET
  const w = n * scale
  const px = new Uint8ClampedArray(w * w * 4).fill(255)
  modules.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (!dark) return
      for (let y = 0; y < scale; y++)
        for (let x = 0; x < scale; x++) {
          const i = (((r + QUIET) * scale + y) * w + (c + QUIET) * scale + x) * 4
          px[i] = px[i + 1] = px[i + 2] = 0
        }
    }),
  )
  return { px, w }
}

describe('the voucher QR code', () => {
  it('reads back as the order id a scanner sees', async () => {
    for (const id of ['1', '4294967296123', '281474976710655999']) {
      const { px, w } = raster(await qrModules(id))
      expect(jsQR(px, w, w)?.data).toBe(id)
    }
  })
})
