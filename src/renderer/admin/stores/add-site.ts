/** Add a Site: read one pasted URL, show the proposal and its preview, confirm it, bookmark the Series. */
import { ref } from 'vue'
import type { AddedSiteView, ReaderView, SiteProposalView } from '../../../shared/admin-api'
import { admin } from '../api'
import { attempt } from './problem'

type Proposal = Extract<SiteProposalView, { ok: true }>

export function useAddSite(onAdded: () => void) {
  const reading = ref(false)
  const proposal = ref<Proposal | null>(null)
  /** Why the pasted page cannot be a Site, in words. */
  const refusal = ref<string | null>(null)
  const added = ref<AddedSiteView | null>(null)
  const bookmarked = ref<string | null>(null)

  async function read(url: string): Promise<void> {
    reading.value = true
    refusal.value = null
    proposal.value = null
    added.value = null
    bookmarked.value = null
    try {
      const answer = await attempt(() => admin.proposeSite({ url: url.trim() }))
      if (!answer) return
      if (answer.ok) proposal.value = answer
      else refusal.value = answer.reason
    } finally {
      reading.value = false
    }
  }

  async function confirm(changes: { key: string; name: string }): Promise<void> {
    const current = proposal.value
    if (!current) return
    const answer = await attempt(() =>
      admin.addSite({
        proposalId: current.id,
        key: changes.key && changes.key !== current.entry.key ? changes.key : undefined,
        name: changes.name && changes.name !== current.entry.name ? changes.name : undefined,
      }),
    )
    if (!answer) return
    added.value = answer
    proposal.value = null
    onAdded()
  }

  async function bookmark(reader: ReaderView): Promise<void> {
    if (!added.value) return
    const row = await attempt(() => admin.addBookmark({ readerId: reader.id, url: added.value!.seriesUrl }))
    if (row) bookmarked.value = `Bookmarked for ${reader.name}: the Series is being read.`
  }

  function cancel(): void {
    proposal.value = null
    refusal.value = null
  }

  return { reading, proposal, refusal, added, bookmarked, read, confirm, bookmark, cancel }
}
