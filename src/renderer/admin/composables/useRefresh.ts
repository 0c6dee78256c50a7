/** Reads now and then every `ms` while the page is shown: the store is the only source, so pages poll it. */
import { onBeforeUnmount, onMounted } from 'vue'

export function useRefreshEvery(refresh: () => Promise<unknown>, ms = 5_000): void {
  let timer: ReturnType<typeof setInterval> | undefined
  onMounted(() => {
    void refresh()
    timer = setInterval(() => void refresh(), ms)
  })
  onBeforeUnmount(() => clearInterval(timer))
}
