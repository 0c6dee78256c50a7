/**
 * Proposals held for their confirm, and how the pasted URL is fetched: the use-case on its own, with fetchers
 * answering stored Madara pages, a real sites.json in a temporary directory, and a fake clock for the waits.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BrowserFetcher, Fetcher, FetchResult } from '../fetch/fetcher'
import { createRegistry, type SiteRegistry } from '../sites/registry'
import type { PageRequest, Site } from '../sites/site'
import { SITES_FILE } from '../sites/sites-file'
import { FakeClock } from '../testing/clock'
import { tempDir } from '../testing/store'
import { PROPOSAL_TTL_MS, siteProposals, type HeldProposal, type SiteProposals } from './site-proposals'

const MADARA = readFileSync(join(__dirname, '../sites/testdata/madara-inline.html'), 'utf8')
const url = (n: number | string) => `https://scans${n}.example/manga/the-tower-climber/`

/** A fetcher answering every request with the stored Madara page, or with `answer`; it notes the pin it was given. */
function fetcher<K extends 'http' | 'browser'>(kind: K, answer?: () => FetchResult) {
  const pins: string[][] = []
  const f = {
    kind,
    async fetch(request: PageRequest, site: Site): Promise<FetchResult> {
      pins.push([...site.hosts])
      return answer?.() ?? { kind: 'page', page: { url: request.url, status: 200, contentType: 'text/html', body: MADARA } }
    },
    isAwake: () => true,
    close: async () => undefined,
  }
  return Object.assign(f, { pins })
}

let dir: ReturnType<typeof tempDir>
let clock: FakeClock
let registry: SiteRegistry
let added: Site[]

beforeEach(() => {
  dir = tempDir()
  clock = new FakeClock()
  registry = createRegistry([])
  added = []
})
afterEach(() => dir.remove())

function proposals(http: Fetcher = fetcher('http'), browser?: BrowserFetcher): SiteProposals {
  return siteProposals({
    registry,
    fetchers: { http, ...(browser ? { browser } : {}) },
    clock,
    dataDir: dir.dir,
    addSite: async (site) => void added.push(site),
  })
}

async function propose(p: SiteProposals, pasted: string): Promise<HeldProposal> {
  const proposal = await p.propose(pasted)
  if (!('id' in proposal)) throw new Error(`no proposal: ${JSON.stringify(proposal)}`)
  return proposal
}

const sitesFile = () => JSON.parse(readFileSync(join(dir.dir, SITES_FILE), 'utf8')) as { sites: Array<{ key: string; name: string }> }

describe('fetching the pasted URL', () => {
  it("over HTTP, pinned to the URL's own host", async () => {
    const http = fetcher('http')
    const proposal = await propose(proposals(http), url(1))
    expect(proposal.entry).toMatchObject({ hosts: ['scans1.example'], family: 'madara' })
    expect(proposal.entry).not.toHaveProperty('fetcher', 'browser')
    expect(http.pins.length).toBeGreaterThan(0)
    expect(new Set(http.pins.map((p) => p.join(' ')))).toEqual(new Set(['scans1.example']))
  })

  it('a page challenged over HTTP is read through the browser, pinned the same, and the entry says it needs one', async () => {
    const http = fetcher('http', () => ({ kind: 'refused', reason: 'a challenge' }))
    const browser = fetcher('browser')
    const proposal = await propose(proposals(http, browser), url(2))
    expect(proposal.entry).toMatchObject({ hosts: ['scans2.example'], fetcher: 'browser' })
    expect(browser.pins[0]).toEqual(['scans2.example'])
  })

  it('a challenge with no browser configured says so', async () => {
    const http = fetcher('http', () => ({ kind: 'refused', reason: 'a challenge' }))
    expect(await proposals(http).propose(url(3))).toEqual({
      ok: false,
      reason: expect.stringMatching(/anti-bot challenge that did not clear \(a challenge\)/),
    })
  })

  it('a challenge the browser cannot pass either says why', async () => {
    const http = fetcher('http', () => ({ kind: 'refused', reason: 'a challenge' }))
    const browser = fetcher('browser', () => ({ kind: 'refused', reason: 'still a challenge' }))
    expect(await proposals(http, browser).propose(url(3))).toEqual({ ok: false, reason: expect.stringMatching(/\(still a challenge\)/) })
  })

  it('an HTTP error is not retried in the browser', async () => {
    const http = fetcher('http', () => ({ kind: 'error', reason: 'connection refused' }))
    const browser = fetcher('browser')
    expect(await proposals(http, browser).propose(url(4))).toMatchObject({ ok: false, reason: expect.stringMatching(/connection refused/) })
    expect(browser.pins).toEqual([])
  })
})

describe('a proposal waits for its confirm', () => {
  it('confirmed: the entry is written with the owner’s key and name, the Site starts, and the proposal is spent', async () => {
    const p = proposals()
    const proposal = await propose(p, url(1))
    const confirmed = await p.confirm(proposal.id, { key: 'tower', name: 'Tower Scans' })
    expect(confirmed.seriesUrl).toBe(url(1))
    expect(confirmed.site).toMatchObject({ key: 'tower', name: 'Tower Scans', hosts: ['scans1.example'] })
    expect(added.map((s) => s.key)).toEqual(['tower'])
    expect(sitesFile().sites).toEqual([expect.objectContaining({ key: 'tower', name: 'Tower Scans' })])
    await expect(p.confirm(proposal.id)).rejects.toMatchObject({
      code: 'not-found',
      message: 'that proposal has expired or was confirmed already; paste the URL again',
    })
  })

  it('confirmed without changes: the proposed key and name', async () => {
    const p = proposals()
    const proposal = await propose(p, url(1))
    expect((await p.confirm(proposal.id)).site).toMatchObject({ key: proposal.entry.key, name: proposal.entry.name })
  })

  it('an entry sites.json refuses is invalid, says why, starts nothing, and can be confirmed again with another key', async () => {
    registry = createRegistry([{ ...(await import('../testing/fakes')).testSite('taken') }])
    const p = proposals()
    const proposal = await propose(p, url(1))
    await expect(p.confirm(proposal.id, { key: 'taken' })).rejects.toMatchObject({
      code: 'invalid',
      message: `${SITES_FILE}: a Site with the key "taken" exists already; nothing was written`,
    })
    expect(added).toEqual([])
    expect((await p.confirm(proposal.id, { key: 'free' })).site.key).toBe('free')
  })

  it('for 30 minutes, and not a moment more', async () => {
    const p = proposals()
    const kept = await propose(p, url(1))
    const lost = await propose(p, url(2))
    await clock.advance(PROPOSAL_TTL_MS)
    expect((await p.confirm(kept.id)).site.hosts).toEqual(['scans1.example'])
    await clock.advance(1)
    await expect(p.confirm(lost.id)).rejects.toMatchObject({ code: 'not-found' })
  })

  it('twenty at most: a twenty-first proposal drops the oldest', async () => {
    const p = proposals()
    const held: HeldProposal[] = []
    for (let n = 0; n < 21; n++) held.push(await propose(p, url(n)))
    await expect(p.confirm(held[0]!.id)).rejects.toMatchObject({ code: 'not-found' })
    expect((await p.confirm(held[1]!.id)).site.hosts).toEqual(['scans1.example'])
    expect((await p.confirm(held[20]!.id)).site.hosts).toEqual(['scans20.example'])
  })

  it('confirming one of twenty held proposals drops no other', async () => {
    const p = proposals()
    const held: HeldProposal[] = []
    for (let n = 0; n < 20; n++) held.push(await propose(p, url(n)))
    await p.confirm(held[5]!.id)
    expect((await p.confirm(held[0]!.id)).site.hosts).toEqual(['scans0.example'])
  })
})
