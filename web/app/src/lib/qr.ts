// The QR code of a paid order's voucher code, for the shop to scan: the
// order id in digits (what redeemOrder takes). The encoder is loaded only
// when a paid order is shown, so it costs nothing on the first page.

/** qrModules is the QR code of text as rows of dark (true) and light modules, without the quiet zone. */
export async function qrModules(text: string): Promise<boolean[][]> {
  const { default: qrcode } = await import('qrcode-generator')
  const qr = qrcode(0, 'M') // the smallest version that holds it; level M survives a smudge
  qr.addData(text, /^\d+$/.test(text) ? 'Numeric' : 'Byte')
  qr.make()
  const n = qr.getModuleCount()
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => qr.isDark(r, c)))
}

/** QUIET is the light border a scanner needs around the code, in modules. */
export const QUIET = 4

/** qrPath draws the dark modules as one SVG path, the quiet zone included in its coordinates. */
export function qrPath(modules: boolean[][]): string {
  let d = ''
  modules.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (dark) d += `M${c + QUIET} ${r + QUIET}h1v1h-1z`
    }),
  )
  return d
}
