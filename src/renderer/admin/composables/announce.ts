/**
 * The window's polite live region: what an action did, said once to a screen reader (App.vue renders it). The
 * same words twice in a row are still said: the region is emptied first.
 */
import { nextTick, ref } from 'vue'

export const announcement = ref('')

export async function announce(words: string): Promise<void> {
  announcement.value = ''
  await nextTick()
  announcement.value = words
}
