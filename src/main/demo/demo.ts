/**
 * The demo (docs/design.md#shells-and-commands, `--demo`): the fixture site on loopback, its Sites at a fast pace, and a demo catalogue
 * in a database of its own — two Readers, a dozen Series over several Sites, one Site that refuses and one
 * behind a browser challenge — with a new chapter published every minute or so, first for a Series a Reader just
 * bookmarked. Its Sites keep their port and their chapters across restarts (demo-state.ts). No internet needed.
 */
import { mkdirSync } from 'node:fs'
import type { Clock } from '../clock'
import type { Log } from '../log'
import type { Site } from '../sites/site'
import { addBookmark, updateBookmark } from '../store/bookmarks'
import type { Db } from '../store/database'
import { listReaders } from '../store/readers'
import { addSeries, setSeriesUrl } from '../store/series'
import { createReader } from '../use-cases/reader-tokens'
import { readDemoState, writeDemoState } from './demo-state'
import { startFixtureSite, type FixtureSite } from './fixture-site'
import { fixtureSites } from './fixture-sites'

/** Fast enough to watch: every Series checked once a minute, a few seconds between fetches. */
export const DEMO_PACE = {
  restMs: 60_000,
  minGapMs: 3_000,
  maxGapMs: 20_000,
  ceilingMs: 600_000,
  refusalBackoffMs: 120_000,
  wakeDueCount: 1,
  // Short passes, so the Lanes page shows fresh pass rows every few seconds.
  maxPassMs: 10_000,
  idleRequeryMs: 5_000,
}

const CATALOGUE: Array<{ site: string; path: string; both?: boolean; read?: number }> = [
  { site: 'fixture-madara', path: '/madara/manga/the-tower-climber/', both: true, read: 0.9 },
  { site: 'fixture-madara', path: '/madara/manga/solo-lantern/', read: 1 },
  { site: 'fixture-madara', path: '/madara/manga/moonlit-bakery/', both: true, read: 0.6 },
  { site: 'fixture-madara', path: '/madara/manga/quiet-swordsmith/', read: 0.5 },
  { site: 'fixture-themesia', path: '/themesia/manga/iron-bloom/', both: true, read: 1 },
  { site: 'fixture-themesia', path: '/themesia/manga/star-harbor/' },
  { site: 'fixture-themesia', path: '/themesia/manga/paper-dragon/', read: 0.8 },
  { site: 'fixture-webtoons', path: '/webtoons/en/fantasy/paper-moons/list?title_no=4021', both: true, read: 1 },
  { site: 'fixture-webtoons', path: '/webtoons/en/fantasy/tidal-hearts/list?title_no=5150', read: 0.75 },
  { site: 'fixture-webtoons', path: '/webtoons/en/fantasy/garden-of-ash/list?title_no=6262', read: 0.7 },
  { site: 'fixture-mangadex', path: '/mangadex/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/komi-can-t-communicate', read: 0.95 },
  { site: 'fixture-madara-xhr', path: '/madara-xhr/manga/night-lantern/', both: true, read: 1 },
  { site: 'fixture-refusing', path: '/never-clears/manga/grumpy-knight/' },
  { site: 'fixture-challenge', path: '/js-challenge/manga/cloud-atlas-chronicle/', both: true },
]

export interface Demo {
  readonly fixture: FixtureSite
  readonly sites: Site[]
  /** Seeds the catalogue into an empty database; returns the Readers' tokens (shown once). */
  seed(db: Db, now: number): Promise<Array<{ name: string; token: string }>>
  stop(): Promise<void>
}

const DEMO_SITE_PREFIX = 'fixture-'

/**
 * Starts the demo's Sites, on the port they had last run (kept in `dataDir`, or a free one when it is taken), with
 * the chapters they had published. Every `publishEveryMs` one Series gets a chapter: a Series a Reader bookmarked
 * since (once it has been checked, so the chapter is news to them) before the rotation over the catalogue.
 */
export async function startDemo(options: { clock: Clock; log: Log; dataDir: string; publishEveryMs?: number }): Promise<Demo> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
  const state = readDemoState(options.dataDir)
  const fixture = await startFixtureSite({ port: state.port }).catch((error: unknown) => {
    options.log.info({ port: state.port, err: error }, "demo: the Sites' port of the last run is taken; a free one is used")
    return startFixtureSite()
  })
  fixture.restore(state.series)
  // Titles as the catalogue writes them, whatever page of a Series is asked for first.
  for (const entry of CATALOGUE) fixture.series(entry.path)
  const save = () => writeDemoState(options.dataDir, { ...state, port: Number(fixture.host.split(':')[1]), series: fixture.snapshot() })
  save()
  const sites = fixtureSites(fixture.host, DEMO_PACE).filter((s) => s.key !== 'fixture-trouble')
  const publishable = CATALOGUE.filter((c) => c.site !== 'fixture-refusing')
  let db: Db | null = null
  const controller = new AbortController()
  const publishOne = async () => {
    const fresh = db ? await freshlyBookmarked(db, state.publishedAt) : null
    const path = fresh ?? publishable[(state.turn++ * 5) % publishable.length]!.path
    const chapter = fixture.publish(path)
    state.publishedAt[path] = options.clock.now()
    save()
    options.log.info({ path, chapter, bookmarked: Boolean(fresh) }, 'demo: a Site published a new chapter')
  }
  const publishing = (async () => {
    while (!controller.signal.aborted) {
      await options.clock.sleep(options.publishEveryMs ?? 60_000, controller.signal)
      if (controller.signal.aborted) break
      await publishOne().catch((error: unknown) => options.log.warn({ err: error }, 'demo: could not publish a chapter'))
    }
  })()

  return {
    fixture,
    sites,
    async seed(into, now) {
      db = into
      if ((await listReaders(into)).length > 0) {
        await repoint(into, fixture.host)
        return []
      }
      const aiko = await createReader(into, 'Aiko', now)
      const ben = await createReader(into, 'Ben', now)
      for (const entry of CATALOGUE) {
        const site = sites.find((s) => s.key === entry.site)!
        const url = `${fixture.origin}${entry.path}`
        const seriesId = site.seriesIdOf(new URL(url))!
        await addSeries(into, { site: site.key, seriesId, seriesUrl: url, title: fixture.series(entry.path).title, now })
        const readers = entry.both ? [aiko, ben] : [aiko]
        for (const { reader } of readers) {
          await addBookmark(into, { site: site.key, seriesId, readerId: reader.id, now })
          if (entry.read) {
            const progress = Math.floor(fixture.series(entry.path).latest * entry.read)
            await updateBookmark(into, reader.id, { site: site.key, seriesId }, { progress, progressAt: now }, now)
          }
          state.publishedAt[entry.path] = now
        }
      }
      save()
      return [aiko, ben].map(({ reader, token }) => ({ name: reader.name, token }))
    },
    async stop() {
      controller.abort()
      await publishing
      save()
      await fixture.close()
    },
  }
}

/**
 * The page path of the Series a Reader bookmarked most recently on a demo Site since its last published chapter,
 * once a check has read it after the bookmark (its next chapter is then a New Chapter to that Reader); or null.
 */
async function freshlyBookmarked(db: Db, publishedAt: Readonly<Record<string, number>>): Promise<string | null> {
  const rows = await db
    .selectFrom('bookmarks as b')
    .innerJoin('series as s', (j) => j.onRef('s.site', '=', 'b.site').onRef('s.series_id', '=', 'b.series_id'))
    .select(['s.series_url', 'b.created_at', 's.latest_checked_at'])
    .where('s.site', 'like', `${DEMO_SITE_PREFIX}%`)
    .where('s.site', '!=', 'fixture-refusing')
    .whereRef('s.latest_checked_at', '>=', 'b.created_at')
    .orderBy('b.created_at', 'desc')
    .limit(50)
    .execute()
  for (const row of rows) {
    const url = new URL(row.series_url)
    const path = `${url.pathname}${url.search}`
    if (row.created_at > (publishedAt[path] ?? 0)) return path
  }
  return null
}

/**
 * When the last run's port was taken, the fixture site listens on another: the demo's own database gets its
 * Series URLs pointed at this run's host, or every check would (rightly) be refused by the host pin.
 */
async function repoint(db: Db, host: string): Promise<void> {
  const rows = await db.selectFrom('series').select(['site', 'series_id', 'series_url']).where('site', 'like', 'fixture-%').execute()
  for (const row of rows) {
    const url = new URL(row.series_url)
    if (url.host === host) continue
    url.host = host
    await setSeriesUrl(db, { site: row.site, seriesId: row.series_id }, url.href, Date.now())
  }
}
