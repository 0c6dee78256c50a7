/** The Updates domain: New Chapters across every Series, newest first, read a page at a time. */
import { ref } from 'vue'
import type { UpcomingView, UpdateView } from '../../../shared/admin-api'
import { admin } from '../api'
import { focusAfterRender } from '../composables/focus'
import { attempt } from './problem'

const PAGE = 50

export function useUpdates() {
  const items = ref<UpdateView[]>([])
  const next = ref<number | undefined>(undefined)
  const loaded = ref(false)
  /** Only the Series this Reader holds (undefined: every Series). */
  const readerId = ref<number | undefined>(undefined)
  const filter = () => (readerId.value !== undefined ? { readerId: readerId.value } : {})
  const upcoming = ref<UpcomingView[]>([])

  async function load(): Promise<void> {
    const page = await attempt(() => admin.updates({ limit: PAGE, ...filter() }))
    if (!page) return
    items.value = page.items
    next.value = page.next
    upcoming.value = page.upcoming ?? []
    loaded.value = true
  }

  /** The next page; focus moves to its first New Chapter, so a keyboard reads on from there. */
  async function more(): Promise<void> {
    if (next.value === undefined) return
    const page = await attempt(() => admin.updates({ limit: PAGE, before: next.value!, ...filter() }))
    if (!page) return
    const first = page.items[0]
    items.value = [...items.value, ...page.items]
    next.value = page.next
    if (first) await focusAfterRender(`[data-update-id="${first.id}"]`)
  }

  return { items, next, loaded, readerId, upcoming, load, more }
}
