/** One ticking clock for the whole window, so every "… ago" ages together without a timer per row. */
import { onScopeDispose, ref, type Ref } from 'vue'

const now = ref(Date.now())
let users = 0
let timer: ReturnType<typeof setInterval> | undefined

export function useNow(): Ref<number> {
  if (users++ === 0) timer = setInterval(() => (now.value = Date.now()), 1_000)
  onScopeDispose(() => {
    if (--users === 0) clearInterval(timer)
  })
  return now
}
