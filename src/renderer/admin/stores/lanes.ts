/** The Lanes domain: the Overview and Lanes pages read Lane state here, and Pause and Resume write it. */
import { ref } from 'vue'
import type { LaneView, OverviewView, PauseDuration } from '../../../shared/admin-api'
import { untilWords } from '../../../shared/format'
import { admin } from '../api'
import { announce } from '../composables/announce'
import { attempt } from './problem'

export function useOverview() {
  const overview = ref<OverviewView | null>(null)
  const refresh = async () => {
    const value = await attempt(() => admin.overview())
    if (value) overview.value = value
  }
  return { overview, refresh }
}

export function useLanes() {
  const lanes = ref<LaneView[]>([])
  const refresh = async () => {
    const value = await attempt(() => admin.lanes())
    if (value) lanes.value = value
  }
  /** Keeps the chart history of a Lane whose row a write answered with. */
  const replace = (fresh: LaneView) => {
    lanes.value = lanes.value.map((l) =>
      l.site === fresh.site ? { ...fresh, recent: l.recent ?? [], recentFailures: l.recentFailures ?? [] } : l,
    )
  }
  const pause = async (site: string, duration: PauseDuration) => {
    const fresh = await attempt(() => admin.pauseLane({ site, duration }))
    if (!fresh) return
    replace(fresh)
    await announce(`Paused ${fresh.name} until ${untilWords(fresh.pausedUntil, Date.now())}.`)
  }
  const resume = async (site: string) => {
    const fresh = await attempt(() => admin.resumeLane({ site }))
    if (!fresh) return
    replace(fresh)
    await announce(`Resumed ${fresh.name}: its Lane runs at its next pass.`)
  }
  const acceptMove = async (site: string) => {
    const to = lanes.value.find((l) => l.site === site)?.move?.toHost
    const fresh = await attempt(() => admin.acceptSiteMove({ site }))
    if (!fresh) return
    replace(fresh)
    await announce(`Moved ${fresh.name} to ${to ?? 'its new host'}: its next check reads it there.`)
  }
  const dismissMove = async (site: string) => {
    const fresh = await attempt(() => admin.dismissSiteMove({ site }))
    if (!fresh) return
    replace(fresh)
    await announce(`Left ${fresh.name} where it was; that move is not proposed again.`)
  }
  return { lanes, refresh, pause, resume, acceptMove, dismissMove }
}
