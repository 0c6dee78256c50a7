/**
 * The first-run checklist (docs/adr/0059-onboarding-says-what-to-do.md): from an empty app to a household that
 * gets its updates — a Reader, a bookmark, a phone that can reach the app. Each step is read from what is there,
 * so it is done however it was done (the window, a command, an import).
 */
import { computed, ref } from 'vue'
import type { ReaderView, SettingsView } from '../../../shared/admin-api'
import { admin } from '../api'
import { attempt } from './problem'

export interface ChecklistStep {
  key: 'reader' | 'bookmark' | 'phone'
  done: boolean
}

export function useFirstRun() {
  const readers = ref<ReaderView[] | null>(null)
  const settings = ref<SettingsView | null>(null)
  const refresh = async () => {
    const [r, s] = await Promise.all([attempt(() => admin.readers()), attempt(() => admin.settings())])
    if (r) readers.value = r
    if (s) settings.value = s
  }
  const steps = computed<ChecklistStep[] | null>(() => {
    if (!readers.value || !settings.value) return null
    return [
      { key: 'reader', done: readers.value.length > 0 },
      { key: 'bookmark', done: readers.value.some((r) => r.bookmarks > 0) },
      { key: 'phone', done: settings.value.readersPage.reachableFromOtherDevices },
    ]
  })
  /** Nothing at all yet: the demo is worth offering. */
  const empty = computed(() => readers.value !== null && readers.value.length === 0)
  return { steps, empty, refresh }
}
