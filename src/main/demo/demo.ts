/**
 * The demo (docs/design.md#shells-and-commands, `--demo`): the fixture site on loopback, its Sites at a fast pace, and a demo catalogue
 * in a database of its own — two Readers, a dozen Series over several Sites, one Site that refuses and one
 * behind a browser challenge — with a new chapter published every minute or so. No internet needed.
 */
import type { Clock } from '../clock'
import type { Log } from '../log'
import type { Site } from '../sites/site'
import { addBookmark, updateBookmark } from '../store/bookmarks'
import type { Db } from '../store/database'
import { listReaders } from '../store/readers'
import { addSeries, setSeriesUrl } from '../store/series'
import { createReader } from '../use-cases/reader-tokens'
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

export async function startDemo(options: { clock: Clock; log: Log; publishEveryMs?: number }): Promise<Demo> {
  const fixture = await startFixtureSite()
  const sites = fixtureSites(fixture.host, DEMO_PACE).filter((s) => s.key !== 'fixture-trouble')
  const publishable = CATALOGUE.filter((c) => c.site !== 'fixture-refusing')
  const controller = new AbortController()
  const publishing = (async () => {
    for (let i = 0; !controller.signal.aborted; i++) {
      await options.clock.sleep(options.publishEveryMs ?? 60_000, controller.signal)
      if (controller.signal.aborted) break
      const entry = publishable[(i * 5) % publishable.length]!
      const chapter = fixture.publish(entry.path)
      options.log.info({ path: entry.path, chapter }, 'demo: a Site published a new chapter')
    }
  })()

  return {
    fixture,
    sites,
    async seed(db, now) {
      if ((await listReaders(db)).length > 0) {
        await repoint(db, fixture.host)
        return []
      }
      const aiko = await createReader(db, 'Aiko', now)
      const ben = await createReader(db, 'Ben', now)
      for (const entry of CATALOGUE) {
        const site = sites.find((s) => s.key === entry.site)!
        const url = `${fixture.origin}${entry.path}`
        const seriesId = site.seriesIdOf(new URL(url))!
        await addSeries(db, { site: site.key, seriesId, seriesUrl: url, title: fixture.series(entry.path).title, now })
        const readers = entry.both ? [aiko, ben] : [aiko]
        for (const { reader } of readers) {
          await addBookmark(db, { site: site.key, seriesId, readerId: reader.id, now })
          if (entry.read) {
            const progress = Math.floor(fixture.series(entry.path).latest * entry.read)
            await updateBookmark(db, reader.id, { site: site.key, seriesId }, { progress, progressAt: now }, now)
          }
        }
      }
      return [aiko, ben].map(({ reader, token }) => ({ name: reader.name, token }))
    },
    async stop() {
      controller.abort()
      await publishing
      await fixture.close()
    },
  }
}

/**
 * The fixture site listens on a new port each run: the demo's own database gets its Series URLs pointed at
 * this run's host, or every check would (rightly) be refused by the host pin.
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
