import type { AnyVariables, TypedDocumentNode, OperationResult } from '@urql/core'
import { client } from './client'
import { apiError, describe, type ApiError } from './errors'
import { failure, isUnreachable, loadFailure, loadGeneration } from './network'

/** Result of one query or mutation: data, or an ApiError and it in words. */
export interface Res<T> {
  data: T | null
  error: ApiError | null
  errorText: string // '' when there is no error, or App.vue's bar says it (a query without connection)
}

function wrap<T>(r: OperationResult<T>): Res<T> {
  const error = apiError(r.error)
  return { data: error ? (r.data ?? null) : (r.data ?? null), error, errorText: describe(error) }
}

export async function query<T, V extends AnyVariables>(doc: TypedDocumentNode<T, V>, vars: V): Promise<Res<T>> {
  const gen = loadGeneration.value
  const r = await client.query(doc, vars, { requestPolicy: 'network-only' }).toPromise()
  // No answer at all (offline, server unreachable) and none kept by the
  // service worker: App.vue says so and offers Retry, unless the page has
  // started afresh since (loadGeneration), and the page does not say it
  // again (no errorText). Mutations are not retried that way: their pages
  // show the error next to the button.
  if (r.error?.networkError && isUnreachable(r.error.networkError) && gen === loadGeneration.value) {
    loadFailure.value ??= failure('data')
    return { ...wrap(r), errorText: '' }
  }
  return wrap(r)
}

export async function mutate<T, V extends AnyVariables>(doc: TypedDocumentNode<T, V>, vars: V): Promise<Res<T>> {
  return wrap(await client.mutation(doc, vars).toPromise())
}

/**
 * subscribe calls onData for each event until the returned function is
 * called. A subscription the server ends with an error (e.g.
 * SUBSCRIPTION_CLOSED for a slow consumer) is opened again after a pause;
 * graphql-ws itself re-subscribes after a dropped connection.
 */
export function subscribe<T, V extends AnyVariables>(
  doc: TypedDocumentNode<T, V>,
  vars: V,
  onData: (d: T) => void,
  onError?: (e: ApiError) => void,
): () => void {
  let stopped = false
  let current: { unsubscribe: () => void } | null = null
  let timer = 0
  const open = () => {
    current = client.subscription(doc, vars).subscribe((r) => {
      if (r.data) {
        onData(r.data)
        return
      }
      const e = apiError(r.error)
      if (!e) return
      onError?.(e)
      if (e.code === 'UNAUTHENTICATED' || stopped) return
      current?.unsubscribe()
      timer = window.setTimeout(() => {
        if (!stopped) open()
      }, 2000)
    })
  }
  open()
  return () => {
    stopped = true
    window.clearTimeout(timer)
    current?.unsubscribe()
  }
}
