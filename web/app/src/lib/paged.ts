import { ref, shallowRef } from 'vue'
import type { Res } from './api'

export interface Page<N> {
  edges: { node: N }[]
  pageInfo: { hasNextPage: boolean; endCursor?: string | null }
}

/** PagedList is what the end of a list (InfiniteMore) reads of a paged list. */
export interface PagedList {
  readonly items: { readonly value: readonly unknown[] }
  readonly loading: { readonly value: boolean }
  readonly hasMore: { readonly value: boolean }
  readonly failed: { readonly value: boolean }
  more(): Promise<void>
}

/**
 * paged keeps one Relay connection for infinite scroll: load(after) fetches a
 * page; more() appends the next one; reset() starts over. Items are deduped by id.
 */
export function paged<N extends { id: string }>(load: (after: string | null) => Promise<Res<Page<N> | null | undefined>>) {
  const items = shallowRef<N[]>([])
  const loading = ref(false)
  const hasMore = ref(true)
  const error = ref('') // in words, '' when App.vue's bar says it (no connection)
  const failed = ref(false) // the last load failed: what is listed is not all there is
  let cursor: string | null = null
  let generation = 0

  async function more(): Promise<void> {
    if (loading.value || !hasMore.value) return
    loading.value = true
    const gen = generation
    const r = await load(cursor)
    if (gen !== generation) return
    loading.value = false
    if (r.error || !r.data) {
      error.value = r.errorText
      failed.value = true
      hasMore.value = false
      return
    }
    error.value = ''
    failed.value = false
    const seen = new Set(items.value.map((n) => n.id))
    items.value = [...items.value, ...r.data.edges.map((e) => e.node).filter((n) => !seen.has(n.id))]
    cursor = r.data.pageInfo.endCursor ?? null
    hasMore.value = r.data.pageInfo.hasNextPage && cursor !== null
  }

  function reset(): Promise<void> {
    generation++
    items.value = []
    cursor = null
    hasMore.value = true
    loading.value = false
    error.value = ''
    failed.value = false
    return more()
  }

  function prepend(list: N[]): void {
    const seen = new Set(list.map((n) => n.id))
    items.value = [...list, ...items.value.filter((n) => !seen.has(n.id))]
  }

  /** put places n as placed does (an event's item lands where the API lists it, even while a page is loading). */
  function put(n: N, before: (a: N, b: N) => boolean, merge?: (cur: N, n: N) => N): void {
    items.value = placed(items.value, n, before, merge)
  }

  return { items, loading, hasMore, error, failed, more, reset, prepend, put }
}

/**
 * placed returns list with n in its place by before(a, b) (a comes first),
 * or, when an item has n's id, with merge(that item, n) there instead.
 */
export function placed<N extends { id: string }>(list: N[], n: N, before: (a: N, b: N) => boolean, merge: (cur: N, n: N) => N = (_, x) => x): N[] {
  const i = list.findIndex((x) => x.id === n.id)
  if (i >= 0) return list.map((x, j) => (j === i ? merge(x, n) : x))
  const at = list.findIndex((x) => before(n, x))
  return at < 0 ? [...list, n] : [...list.slice(0, at), n, ...list.slice(at)]
}
