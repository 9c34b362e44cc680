import type { CombinedError } from '@urql/core'
import { t } from './i18n'

/** The first GraphQL error's extensions, or a network error, as one record. */
export interface ApiError {
  code: string
  message: string
  field?: string
  retryAfterMs?: number
}

export function apiError(err: CombinedError | undefined | null): ApiError | null {
  if (!err) return null
  const g = err.graphQLErrors[0]
  if (g) {
    const ext = (g.extensions ?? {}) as Record<string, unknown>
    return {
      code: typeof ext.code === 'string' ? ext.code : 'UNKNOWN',
      message: g.message,
      field: typeof ext.field === 'string' ? ext.field : undefined,
      retryAfterMs: typeof ext.retryAfterMs === 'number' ? ext.retryAfterMs : undefined,
    }
  }
  return { code: 'NETWORK', message: err.networkError?.message ?? err.message }
}

/** describe puts an API error in words of the current language. */
export function describe(e: ApiError | null): string {
  if (!e) return ''
  switch (e.code) {
    case 'RATE_LIMITED': {
      const s = Math.max(1, Math.ceil((e.retryAfterMs ?? 1000) / 1000))
      return t('err.rateLimited', { s })
    }
    case 'UNAUTHENTICATED':
      return t('err.unauthenticated')
    case 'FORBIDDEN':
      return t('err.forbidden')
    case 'NOT_FOUND':
      return t('err.notFound')
    case 'OUT_OF_STOCK':
      return t('err.outOfStock')
    case 'ALREADY_ORDERED':
      return t('err.alreadyOrdered')
    case 'SALE_NOT_STARTED':
      return t('err.saleNotStarted')
    case 'SALE_ENDED':
      return t('err.saleEnded')
    case 'CONFLICT':
      return t('err.conflict')
    case 'BAD_USER_INPUT':
      if (e.field === 'code') return /wrong/i.test(e.message) ? t('err.wrongCode') : t('err.codeExpired')
      if (e.field === 'phone') return t('err.badPhone')
      if (e.field === 'password') return t('err.wrongPassword')
      return e.field ? t('err.badInputField', { field: e.field, message: e.message }) : t('err.badInput', { message: e.message })
    case 'NETWORK':
      return t('err.network')
    case 'INTERNAL_SERVER_ERROR':
      return t('err.internal')
    case 'UNAVAILABLE':
      return t('err.unavailable')
    default:
      return e.message
  }
}

export function errorText(err: CombinedError | undefined | null): string {
  return describe(apiError(err))
}
