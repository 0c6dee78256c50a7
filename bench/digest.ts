/**
 * digest-50x200: the CPU of one digest — 50 Readers each holding the same 200 Series, every Series with a New
 * Chapter from the pass and a stored list of 80 chapters, each Reader read up to a different chapter, one webhook
 * channel each (every fifth in quiet hours, its message joined to the one it holds) — turned into outbox
 * messages in the app's transaction on a real file (`synchronous=FULL`), median of 5. Baseline, same run and
 * file: a bare read of the 10,000 bookmarks with their Series and INSERTs of as many messages, one
 * transaction. Target: <= 100 ms CPU (docs/adr/0170-digests-in-sets.md).
 */
import { join } from 'node:path'
import type { Clock } from '../src/main/clock'
import { silentLog } from '../src/main/log'
import { createNotifier } from '../src/main/notify/notifier'
import { storeChapters } from '../src/main/store/chapters'
import { openStore, type Store } from '../src/main/store/database'
import { addChannel, putReaderPrefs, recordNewChapterEvent } from '../src/main/store/notify'
import { addReader } from '../src/main/store/readers'
import { tempDir } from '../src/main/testing/store'
import type { BenchResult } from './run'

const READERS = 50
const SERIES = 200
const RUNS = 5
const NOW = Date.UTC(2026, 0, 5, 12, 0)

const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function seed(store: Store): Promise<void> {
  const { db, sqlite } = store
  const readers: number[] = []
  for (let r = 0; r < READERS; r++) {
    const row = await addReader(db, { name: `Reader ${r}`, tokenHash: `bench-${r}`, now: 1 })
    readers.push(row.id)
    await addChannel(db, row.id, { kind: 'webhook', target: 'http://127.0.0.1:9/hook', secret: '{"secret":"k"}' }, 1)
    if (r % 5 === 0)
      await putReaderPrefs(db, {
        reader_id: row.id,
        min_unread: 1,
        quiet_from: '00:00',
        quiet_to: '23:59',
        time_zone: 'UTC',
        muted: '[]',
        updated_at: 1,
      })
  }
  const series = sqlite.prepare(
    "INSERT INTO series (site, series_id, title, series_url, latest_chapter, latest_source, latest_checked_at, created_at) VALUES ('a', ?, ?, ?, 80, 'check', ?, 1)",
  )
  const bookmark = sqlite.prepare(
    'INSERT INTO bookmarks (reader_id, site, series_id, progress, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 1)',
  )
  sqlite.transaction(() => {
    for (let s = 0; s < SERIES; s++) {
      series.run(`s${s}`, `Series ${s}`, `https://a.example/manga/s${s}`, NOW - 3_600_000)
      for (const [i, id] of readers.entries()) bookmark.run(id, 'a', `s${s}`, (i * 7 + s) % 3 === 0 ? null : (i + s) % 78)
    }
  })()
  await db.transaction().execute(async (trx) => {
    for (let s = 0; s < SERIES; s++) {
      const served = Array.from({ length: 80 }, (_, c) => ({
        number: c + 1,
        label: `Ch ${c + 1}`,
        url: `https://a.example/s${s}/${c + 1}`,
      }))
      await storeChapters(trx, { site: 'a', seriesId: `s${s}` }, served, NOW, 79)
    }
  })
}

async function newChapters(store: Store, at: number): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    for (let s = 0; s < SERIES; s++)
      await recordNewChapterEvent(trx, {
        site: 'a',
        seriesId: `s${s}`,
        chapter: 80,
        label: 'Ch 80',
        url: `https://a.example/s${s}/80`,
        title: `Series ${s}`,
        previousCheckAt: at - 3_600_000,
        at,
      })
  })
}

/** The bare work: the holders with their Series in one read, and one INSERT per message, in one transaction. */
function bare(store: Store): number {
  const read = store.sqlite.prepare(
    "SELECT b.reader_id, b.progress, s.latest_chapter, s.latest_chapter_url, s.series_url FROM bookmarks b JOIN series s ON s.site = b.site AND s.series_id = b.series_id WHERE b.site = 'a'",
  )
  const insert = store.sqlite.prepare(
    'INSERT INTO notify_outbox (channel_id, message, created_at, not_before, next_attempt_at) VALUES (?, ?, ?, ?, ?)',
  )
  const channels = store.sqlite.prepare('SELECT id FROM notify_channels').all() as Array<{ id: number }>
  const started = cpu()
  store.sqlite.transaction(() => {
    const rows = read.all() as Array<{ reader_id: number }>
    const perReader = new Map<number, unknown[]>()
    for (const r of rows) perReader.set(r.reader_id, [...(perReader.get(r.reader_id) ?? []), r])
    for (const { id } of channels) insert.run(id, JSON.stringify(perReader.get(id)?.slice(0, 50) ?? []), -1, NOW, NOW)
    store.sqlite.prepare('DELETE FROM notify_outbox WHERE created_at = -1').run()
  })()
  return cpu() - started
}

export async function digest50x200(): Promise<BenchResult> {
  const dir = tempDir('mb-bench-digest-')
  const store = openStore(join(dir.dir, 'bench.sqlite'), { now: 1 })
  try {
    await seed(store)
    let at = NOW
    const clock: Clock = { now: () => at, monotonic: () => at, sleep: async () => undefined }
    const notifier = createNotifier({
      db: store.db,
      clock,
      log: silentLog,
      vapid: () => {
        throw new Error('no push in the bench')
      },
      policy: async () => 'local-network',
    })
    const times: number[] = []
    const bares: number[] = []
    let messages = 0
    for (let run = 0; run < RUNS; run++) {
      at = NOW + run * 60_000
      await newChapters(store, at)
      const started = cpu()
      await notifier.digest('a')
      times.push(cpu() - started)
      const outbox = store.sqlite.prepare('SELECT count(*) AS n FROM notify_outbox').get() as { n: number }
      messages = outbox.n
      // The next run queues afresh, beside the messages held for quiet hours (joined, as the app does).
      store.sqlite.prepare('DELETE FROM notify_outbox WHERE not_before <= ?').run(at)
      bares.push(bare(store))
    }
    const value = median(times)
    const baseline = median(bares)
    return {
      name: 'digest-50x200',
      value,
      unit: 'ms CPU',
      baseline,
      ratio: value / baseline,
      target: '<= 100',
      pass: value <= 100,
      note: `runs ${times.map((t) => Math.round(t)).join('/')} ms; ${messages} messages after the last; bare read+insert ${baseline.toFixed(1)} ms`,
    }
  } finally {
    await store.close()
    dir.remove()
  }
}
