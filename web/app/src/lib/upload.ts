import { authHeader } from './auth'
import { describe, errorCode, type ApiError } from './errors'

// uploadImage sends one file as a GraphQL multipart request (the upload
// spec) with XMLHttpRequest, for its upload progress events. The server
// refuses multipart requests without a GraphQL-Require-Preflight header
// (CSRF protection), so the header is always set.

const OPERATION = 'mutation UploadImage($file: Upload!) { uploadImage(file: $file) }'

export interface Upload {
  promise: Promise<string>
  abort: () => void
}

export class UploadError extends Error {
  constructor(public readonly apiError: ApiError) {
    super(describe(apiError))
  }
}

export function uploadImage(file: File, onProgress: (fraction: number) => void): Upload {
  const xhr = new XMLHttpRequest()
  const promise = new Promise<string>((resolve, reject) => {
    const form = new FormData()
    form.append('operations', JSON.stringify({ query: OPERATION, operationName: 'UploadImage', variables: { file: null } }))
    form.append('map', JSON.stringify({ 0: ['variables.file'] }))
    form.append('0', file, file.name)
    xhr.open('POST', '/graphql')
    xhr.setRequestHeader('GraphQL-Require-Preflight', '1')
    for (const [k, v] of Object.entries(authHeader())) xhr.setRequestHeader(k, v)
    xhr.responseType = 'json'
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total)
    }
    xhr.onload = () => {
      const body = xhr.response as { data?: { uploadImage?: string } | null; errors?: { message: string; extensions?: Record<string, unknown> }[] } | null
      const path = body?.data?.uploadImage
      if (path) {
        onProgress(1)
        resolve(path)
        return
      }
      const e = body?.errors?.[0]
      const ext = e?.extensions ?? {}
      reject(
        new UploadError({
          code: typeof ext.code === 'string' ? errorCode(ext) : xhr.status === 413 ? 'BAD_USER_INPUT' : 'NETWORK',
          message: e?.message ?? `HTTP ${xhr.status}`,
          field: typeof ext.field === 'string' ? ext.field : undefined,
          retryAfterMs: typeof ext.retryAfterMs === 'number' ? ext.retryAfterMs : undefined,
        }),
      )
    }
    xhr.onerror = () => reject(new UploadError({ code: 'NETWORK', message: 'network error' }))
    xhr.onabort = () => reject(new UploadError({ code: 'ABORTED', message: 'cancelled' }))
    xhr.send(form)
  })
  return { promise, abort: () => xhr.abort() }
}

export const ACCEPT = 'image/jpeg,image/png,image/webp'
export const MAX_BYTES = 5 * 1024 * 1024

/**
 * shrink re-encodes a large photo before upload: at most maxSide pixels on
 * its longer side, JPEG at quality 0.85 on white. The server keeps images as
 * sent and lists show them as they are, so this is what keeps pages light.
 * Files already small (or that do not get smaller) are sent unchanged.
 */
export async function shrink(file: File, maxSide = 1600, maxBytes = 600 * 1024): Promise<File> {
  if (file.size <= maxBytes || typeof createImageBitmap !== 'function') return file
  try {
    const bmp = await createImageBitmap(file)
    const scale = Math.min(1, maxSide / Math.max(bmp.width, bmp.height))
    const w = Math.max(1, Math.round(bmp.width * scale))
    const h = Math.max(1, Math.round(bmp.height * scale))
    const c = document.createElement('canvas')
    c.width = w
    c.height = h
    const g = c.getContext('2d')
    if (!g) return file
    g.fillStyle = '#fff'
    g.fillRect(0, 0, w, h)
    g.drawImage(bmp, 0, 0, w, h)
    bmp.close()
    const blob = await new Promise<Blob | null>((res) => c.toBlob(res, 'image/jpeg', 0.85))
    if (!blob || blob.size >= file.size) return file
    return new File([blob], file.name.replace(/\.[^.]*$/, '') + '.jpg', { type: 'image/jpeg' })
  } catch {
    return file
  }
}
