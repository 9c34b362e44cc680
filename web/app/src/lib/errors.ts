import type { CombinedError } from '@urql/core'
import type { ErrorCode } from '../gql/errorCode'
import { t } from './i18n'

export type { ErrorCode }

/**
 * The code of an ApiError: one of the server's, ErrorCode (generated from the
 * schema's enum ErrorCode, so a code the server drops fails the type check
 * wherever the app names it), or one of the app's own for an answer without
 * a code: NETWORK (no answer), ABORTED (an upload cancelled) or UNKNOWN.
 */
export type ApiErrorCode = ErrorCode | 'NETWORK' | 'ABORTED' | 'UNKNOWN'

/** The first GraphQL error's extensions, or a network error, as one record. */
export interface ApiError {
  code: ApiErrorCode
  message: string
  field?: string
  retryAfterMs?: number
}

/**
 * errorCode reads extensions.code. The server sends one of ErrorCode; a code
 * this build does not know yet is kept as it came, and describe shows its
 * message.
 */
export function errorCode(extensions: Record<string, unknown> | undefined): ApiErrorCode {
  const code = extensions?.code
  return typeof code === 'string' ? (code as ErrorCode) : 'UNKNOWN'
}

export function apiError(err: CombinedError | undefined | null): ApiError | null {
  if (!err) return null
  const g = err.graphQLErrors[0]
  if (g) {
    const ext = (g.extensions ?? {}) as Record<string, unknown>
    return {
      code: errorCode(ext),
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
      // updateProfile with a new password: the code sent to the user's phone,
      // or the current password, confirms it.
      if (e.field === 'input.code') {
        if (/wrong/i.test(e.message)) return t('err.wrongCode')
        if (/6 digits/i.test(e.message)) return t('err.codeDigits')
        if (/needs/i.test(e.message)) return t('err.codeNeeded')
        return t('err.codeExpiredOwnPhone')
      }
      if (e.field === 'input.currentPassword') return /wrong/i.test(e.message) ? t('err.wrongCurrentPassword') : t('err.confirmPassword')
      if (e.field === 'input.password') return t('err.passwordLength')
      if (e.field === 'phone') return t('err.badPhone')
      if (e.field === 'password') return t('err.wrongPassword')
      return e.field ? t('err.badInputField', { field: e.field, message: e.message }) : t('err.badInput', { message: e.message })
    case 'NETWORK':
      // The browser knows it has no network: say that, not "the server".
      return typeof navigator !== 'undefined' && navigator.onLine === false ? t('err.offline') : t('err.network')
    case 'INTERNAL_SERVER_ERROR':
      return t('err.internal')
    case 'UNAVAILABLE':
      return t('err.unavailable')
    case 'PAYMENT_FAILED':
      return t('err.paymentFailed')
    case 'NO_PAYMENT':
      return t('err.noPayment')
    default:
      return e.message
  }
}

export function errorText(err: CombinedError | undefined | null): string {
  return describe(apiError(err))
}
