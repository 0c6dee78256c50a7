/**
 * `npm run test:crash [-- --seed N] [--kills N] [--json FILE]` — the crash-kill suite (docs/reliability.md).
 *
 * The built headless shell (out/main/headless.js) runs on a temporary data directory with Sites on a fixture
 * site in this process — HTTP families, one that always refuses, one that answers 429 with Retry-After —
 * and Lanes at full pace. Readers write Progress and report Sightings as fast as the endpoint answers. At a
 * moment drawn from the seed the process is killed with SIGKILL; then, before the next start:
 *
 * - `PRAGMA integrity_check` is `ok`;
 * - every acknowledged Progress write is there (the bookmark's progressAt at least the acknowledged one, and
 *   its Progress when equal) and every acknowledged Sighting is there — or a later one of the same Reader and
 *   Series that replaced it (a Reader has one outstanding Sighting a Series: docs/adr/0081-one-reader-bounded.md);
 * - every pass row is well formed (times in order, a known skip, counts that add up);
 * - no refusal is forgotten: each refusal the log file recorded (written after its commit) is still in
 *   `poll_lanes` (refuse_until at least as late).
 *
 * Then a power-cut round (docs/adr/0205-which-writes-wait-for-the-disk.md): while Readers write and Lanes check, the
 * database's WAL and then its file are copied as they are, and the copy opened: `integrity_check` is `ok` and every
 * write acknowledged before the copy began is in it.
 *
 * Then a clock-ahead round: the shell two days fast takes a write without progressAt, and a device's later write
 * with the right time is the one kept (docs/adr/0121-a-write-without-a-time.md).
 *
 * Then a restore round: a backup made (`npm run backup`'s code), the database damaged (garbage over a page in its
 * middle), `npm run restore -- --latest` refused while the shell runs on the directory and taking the backup once
 * it is stopped — and every acknowledged write checked as above, in the restored file. Then an empty-start round:
 * the database deleted while the shell is stopped, a start past the daily backup's first look (a real minute) with
 * no backup made of the empty library and Readers answered `library-missing`, and `restore --latest` bringing back
 * every acknowledged write.
 *
 * The same seed draws the same kill moments and the same writes (what the machine's timing makes of them is
 * its own). Prints the figures; exits 1 on any violation.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { wantsHelp } from '../src/main/cli/help'
import { runBackupCommand } from '../src/main/cli/backup'
import { runRestoreCommand } from '../src/main/cli/restore'
import { corruptMiddlePage } from '../src/main/testing/faults'
import BetterSqlite3 from 'better-sqlite3'
import { startFixtureSite } from '../src/main/demo/fixture-site'
import { openStore, STORE_FILE } from '../src/main/store/database'
import { BACKUP_DIR, listBackups } from '../src/main/store/backups'
import { FIRST_BACKUP_DELAY_MS } from '../src/main/backup-schedule'
import { createReader } from '../src/main/use-cases/reader-tokens'
import { SKIPS } from '../src/shared/skip'

const ROOT = join(import.meta.dirname, '..')
if (wantsHelp(process.argv.slice(2))) {
  console.log(
    [
      'Usage: npm run test:crash [-- --seed N] [--kills N] [--json FILE]',
      '',
      "Kills the built headless shell with SIGKILL at seeded moments under Readers' writes and Lanes at full pace, and",
      'checks after each that the database is whole and every acknowledged write is kept.',
      '  --seed N     the seed that draws the moments (default 14)',
      '  --kills N    how many kills (default 24)',
      '  --json FILE  also write the figures as JSON',
    ].join('\n'),
  )
  process.exit(0)
}
const { values } = parseArgs({
  options: { seed: { type: 'string', default: '14' }, kills: { type: 'string', default: '24' }, json: { type: 'string' } },
})
const SEED = Number(values.seed)
const KILLS = Math.max(1, Number(values.kills))
const READERS = 6
const WRITERS_PER_READER = 4
const SERIES_PER_SITE = 12

/** mulberry32: a small seeded PRNG, so a seed draws the same moments. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
/** The kill moments: their own sequence, so the writers' draws (which depend on timing) never shift them. */
const moments = prng(SEED)
const random = prng(SEED ^ 0x5eed)

interface Figures {
  seed: number
  kills: number
  progressAcknowledged: number
  progressKept: number
  sightingsAcknowledged: number
  sightingsKept: number
  answered503: number
  /** Rate-limited (600 a minute per Reader): not acknowledged, not expected to be kept. */
  answered429: number
  refusalsLogged: number
  /** Sites whose latest logged refusal is still in poll_lanes. */
  refusalsKept: number
  passRows: number
  passRowsChecked: number
  integrityChecks: number
  /** Restore rounds: backup → damage → restore, every acknowledged write checked after. */
  restores: number
  /** Empty-start rounds: the database deleted, the start, no backup of the empty library, restore --latest. */
  emptyStarts: number
  /** Power-cut rounds: the files copied while the app writes, the copy whole and holding every acknowledged write. */
  powerCuts: number
  /** Clock-ahead rounds: the shell two days fast, a write without progressAt, then a device's timed write kept. */
  clockAhead: number
  violations: string[]
  seconds: number
}

const figures: Figures = {
  seed: SEED,
  kills: 0,
  progressAcknowledged: 0,
  progressKept: 0,
  sightingsAcknowledged: 0,
  sightingsKept: 0,
  answered503: 0,
  answered429: 0,
  refusalsLogged: 0,
  refusalsKept: 0,
  passRows: 0,
  passRowsChecked: 0,
  integrityChecks: 0,
  restores: 0,
  emptyStarts: 0,
  powerCuts: 0,
  clockAhead: 0,
  violations: [],
  seconds: 0,
}

const started = Date.now()
const built = spawnSync(process.execPath, [join(ROOT, 'scripts/ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' })
if (built.status !== 0) process.exit(built.status ?? 1)

const fixture = await startFixtureSite()
const data = mkdtempSync(join(tmpdir(), 'mb-crash-'))
const pace = { restMs: 3_000, minGapMs: 20, maxGapMs: 100, idleRequeryMs: 200, refusalBackoffMs: 1_500 }
const SITES = [
  { key: 'crash-madara', family: 'madara', prefix: '/madara/manga/' },
  { key: 'crash-themesia', family: 'mangathemesia', prefix: '/themesia/manga/' },
  { key: 'crash-refusing', family: 'madara', prefix: '/never-clears/manga/' },
  { key: 'crash-slow', family: 'madara', prefix: '/slow-down/manga/', query: '?status=429&retry=2' },
]
writeFileSync(
  join(data, 'sites.json'),
  JSON.stringify({
    sites: SITES.map((s) => ({
      key: s.key,
      name: s.key,
      hosts: [fixture.host],
      family: s.family,
      idPattern: `^${s.prefix.replace(/\//g, '\\/')}([^/]+)`,
      pace,
    })),
  }),
)

// Readers and their bookmarks, before the first start.
const readers: Array<{ id: number; token: string }> = []
const series: Array<{ site: string; seriesId: string }> = []
{
  const store = openStore(join(data, STORE_FILE), { now: Date.now() })
  for (let r = 0; r < READERS; r++) {
    const issued = await createReader(store.db, `reader-${r}`, Date.now())
    readers.push({ id: issued.reader.id, token: issued.token })
  }
  for (const s of SITES)
    for (let i = 0; i < SERIES_PER_SITE; i++) {
      const seriesId = `s${i}`
      series.push({ site: s.key, seriesId })
      await store.db
        .insertInto('series')
        .values({
          site: s.key,
          series_id: seriesId,
          title: seriesId,
          series_url: `${fixture.origin}${s.prefix}${seriesId}/${s.query ?? ''}`,
          created_at: 1,
        })
        .execute()
      for (const reader of readers)
        await store.db
          .insertInto('bookmarks')
          .values({ reader_id: reader.id, site: s.key, series_id: seriesId, created_at: 1, updated_at: 1 })
          .execute()
    }
  await store.close()
}

/** Per bookmark: the newest acknowledged Progress write (its progressAt and value). */
const acknowledged = new Map<string, { progressAt: number; progress: number }>()
/** Each acknowledged Sighting's id, with its Reader and Series (`reader/site/seriesId`). */
const sightingIds = new Map<number, string>()
/** progressAt only grows, across runs: each write is newer than every earlier one. */
let clockOfWrites = 1_000

/** `aheadMs`: the shell's wall clock runs that far ahead (Date.now shifted before the app loads). */
function start(aheadMs = 0): { child: ChildProcess; ready: Promise<string>; exited: Promise<void> } {
  const ahead = aheadMs ? [`--import=data:text/javascript,const n=Date.now;Date.now=()=>n()+${aheadMs}`] : []
  const child = spawn(process.execPath, [...ahead, join(ROOT, 'out/main/headless.js'), '--data', data, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The app under test needs none of the owner's secrets (docs/adr/0088).
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'MB_ADMIN_TOKEN')), MB_LOG_LEVEL: 'info' },
  })
  let out = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (match) resolve(match[1]!)
    })
    child.stderr!.resume()
    void exited.then(() => reject(new Error(`the app exited before serving: ${out}`)))
  })
  return { child, ready, exited }
}

async function writer(origin: string, reader: { id: number; token: string }, stop: AbortSignal): Promise<void> {
  const headers = { authorization: `Bearer ${reader.token}`, 'content-type': 'application/json' }
  while (!stop.aborted) {
    const target = series[Math.floor(random() * series.length)]!
    try {
      if (random() < 0.8) {
        const progressAt = ++clockOfWrites
        const progress = progressAt % 1000
        const res = await fetch(`${origin}/api/v1/bookmarks/${target.site}/${target.seriesId}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ progress, progressAt }),
          signal: stop,
        })
        if (res.status === 503) figures.answered503++
        if (res.status === 429) figures.answered429++
        if (res.status !== 200) continue
        await res.json()
        figures.progressAcknowledged++
        const key = `${reader.id}/${target.site}/${target.seriesId}`
        const known = acknowledged.get(key)
        if (!known || known.progressAt < progressAt) acknowledged.set(key, { progressAt, progress })
      } else {
        const res = await fetch(`${origin}/api/v1/sightings`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ site: target.site, seriesId: target.seriesId, chapter: 1 + Math.floor(random() * 500) }),
          signal: stop,
        })
        if (res.status === 503) figures.answered503++
        if (res.status !== 202) continue
        const body = (await res.json()) as { sighting: { id: number } }
        figures.sightingsAcknowledged++
        sightingIds.set(body.sighting.id, `${reader.id}/${target.site}/${target.seriesId}`)
      }
    } catch {
      // The process was killed mid-request, or the run ended: not acknowledged.
    }
  }
}

/** Refusals the log recorded (each after its commit): the latest `until` per Site. */
function loggedRefusals(): Map<string, number> {
  const latest = new Map<string, number>()
  const dir = join(data, 'logs')
  let count = 0
  for (const file of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.includes('refused; ')) continue
      let entry: { site?: string; until?: number }
      try {
        entry = JSON.parse(line) as { site?: string; until?: number }
      } catch {
        continue // the line being written when the process died
      }
      if (!entry.site || typeof entry.until !== 'number') continue
      count++
      latest.set(entry.site, Math.max(latest.get(entry.site) ?? 0, entry.until))
    }
  }
  figures.refusalsLogged = count
  return latest
}

function verify(run: number | string): void {
  const fail = (what: string) => figures.violations.push(`after ${typeof run === 'number' ? `kill ${run}` : run}: ${what}`)
  const db = new BetterSqlite3(join(data, STORE_FILE))
  try {
    const integrity = db.pragma('integrity_check', { simple: true })
    figures.integrityChecks++
    if (integrity !== 'ok') fail(`integrity_check: ${String(integrity)}`)

    const rows = db.prepare('SELECT reader_id, site, series_id, progress, progress_at FROM bookmarks').all() as Array<{
      reader_id: number
      site: string
      series_id: string
      progress: number | null
      progress_at: number
    }>
    const stored = new Map(rows.map((r) => [`${r.reader_id}/${r.site}/${r.series_id}`, r]))
    let kept = 0
    for (const [key, ack] of acknowledged) {
      const row = stored.get(key)
      if (!row || row.progress_at < ack.progressAt || (row.progress_at === ack.progressAt && row.progress !== ack.progress))
        fail(`Progress ${key} acknowledged at ${ack.progressAt} (${ack.progress}), stored ${row?.progress_at} (${row?.progress})`)
      else kept++
    }
    figures.progressKept = kept

    const sightings = db.prepare('SELECT id, reader_id, site, series_id FROM sightings').all() as Array<{
      id: number
      reader_id: number
      site: string
      series_id: string
    }>
    const ids = new Set(sightings.map((r) => r.id))
    /** The newest stored Sighting of each Reader and Series. */
    const newest = new Map<string, number>()
    for (const r of sightings) {
      const key = `${r.reader_id}/${r.site}/${r.series_id}`
      newest.set(key, Math.max(newest.get(key) ?? 0, r.id))
    }
    let sightingsKept = 0
    for (const [id, key] of sightingIds) {
      if (ids.has(id) || (newest.get(key) ?? 0) > id) sightingsKept++
      else fail(`Sighting ${id} acknowledged, not stored, and none of the same Reader and Series after it`)
    }
    figures.sightingsKept = sightingsKept

    const passes = db.prepare('SELECT * FROM poll_passes').all() as Array<Record<string, number | string>>
    figures.passRows = passes.length
    for (const p of passes) {
      const n = (k: string) => p[k] as number
      const problems = [
        n('ended_at') < n('started_at') && 'ended before it started',
        !['', ...SKIPS].includes(p.skip as string) && `skip "${p.skip}"`,
        ['due', 'gap', 'checked', 'refused', 'unreachable', 'no_chapter', 'unfetchable', 'errors'].some((k) => n(k) < 0) &&
          'a negative count',
        ![0, 1].includes(n('clamped')) && 'clamped not 0/1',
        p.skip === '' && n('refused') + n('no_chapter') + n('unfetchable') + n('errors') > n('checked') && 'more outcomes than checks',
      ].filter(Boolean)
      if (problems.length) fail(`pass row ${p.id} (${p.site}): ${problems.join(', ')}`)
    }
    figures.passRowsChecked += passes.length

    const lanes = new Map(
      (db.prepare('SELECT site, refuse_until FROM poll_lanes').all() as Array<{ site: string; refuse_until: number }>).map((l) => [
        l.site,
        l.refuse_until,
      ]),
    )
    let refusalsKept = 0
    for (const [site, until] of loggedRefusals()) {
      if ((lanes.get(site) ?? 0) >= until) refusalsKept++
      else fail(`refusal of ${site} until ${until} logged, poll_lanes says ${lanes.get(site)}`)
    }
    figures.refusalsKept = refusalsKept
  } finally {
    db.close()
  }
}

try {
  for (let run = 1; run <= KILLS; run++) {
    const app = start()
    const origin = await app.ready
    const stop = new AbortController()
    const writers = readers.flatMap((reader) => Array.from({ length: WRITERS_PER_READER }, () => writer(origin, reader, stop.signal)))
    // A moment from the seed: early (the Lanes just starting) to well into a pass.
    const moment = 150 + Math.floor(moments() * 2_350)
    await new Promise((resolve) => setTimeout(resolve, moment))
    app.child.kill('SIGKILL')
    await app.exited
    figures.kills++
    stop.abort()
    await Promise.allSettled(writers)
    verify(run)
    process.stdout.write(
      `kill ${run}/${KILLS} at ${moment} ms: ${figures.progressAcknowledged} Progress and ${figures.sightingsAcknowledged} Sightings acknowledged so far, ${figures.violations.length} violations\n`,
    )
  }
  await powerCutRound()
  await clockAheadRound()
  await restoreRound()
  await emptyStartRound()
} finally {
  await fixture.close()
  rmSync(data, { recursive: true, force: true })
}

/**
 * Copies taken as a power cut would leave the files (docs/adr/0205-which-writes-wait-for-the-disk.md): while Readers
 * write and the Lanes check (their stamps and records committed without waiting for the disk), the WAL and then
 * the database are copied, and the copy opened on its own: whole, and with every Progress and Sighting
 * acknowledged before the copy began.
 */
async function powerCutRound(): Promise<void> {
  const fail = (what: string): void => void figures.violations.push(`power-cut round: ${what}`)
  const app = start()
  const origin = await app.ready
  const stop = new AbortController()
  const writers = readers.flatMap((reader) => Array.from({ length: WRITERS_PER_READER }, () => writer(origin, reader, stop.signal)))
  const copies = mkdtempSync(join(tmpdir(), 'mb-power-cut-'))
  try {
    for (let cut = 1; cut <= 5; cut++) {
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.floor(moments() * 700)))
      const progress = new Map(acknowledged)
      const sightings = new Map(sightingIds)
      const copy = join(copies, `${cut}.sqlite`)
      // The WAL first: a checkpoint between the two copies leaves its frames in the file copied after.
      copyFileSync(join(data, `${STORE_FILE}-wal`), `${copy}-wal`)
      copyFileSync(join(data, STORE_FILE), copy)
      const db = new BetterSqlite3(copy)
      try {
        const integrity = db.pragma('integrity_check', { simple: true })
        if (integrity !== 'ok') fail(`copy ${cut}: integrity_check ${String(integrity)}`)
        const at = db.prepare('SELECT progress, progress_at FROM bookmarks WHERE reader_id = ? AND site = ? AND series_id = ?')
        for (const [key, ack] of progress) {
          const [reader, site, seriesId] = key.split('/')
          const row = at.get(Number(reader), site, seriesId) as { progress: number | null; progress_at: number } | undefined
          if (!row || row.progress_at < ack.progressAt)
            fail(`copy ${cut}: Progress ${key} acknowledged at ${ack.progressAt}, copied ${row?.progress_at}`)
        }
        const ids = new Set((db.prepare('SELECT id FROM sightings').all() as Array<{ id: number }>).map((r) => r.id))
        const newest = db.prepare('SELECT max(id) AS id FROM sightings WHERE reader_id = ? AND site = ? AND series_id = ?')
        for (const [id, key] of sightings) {
          const [reader, site, seriesId] = key.split('/')
          if (!ids.has(id) && ((newest.get(Number(reader), site, seriesId) as { id: number | null }).id ?? 0) < id)
            fail(`copy ${cut}: Sighting ${id} acknowledged, not in the copy`)
        }
      } finally {
        db.close()
      }
      figures.powerCuts++
    }
  } finally {
    app.child.kill('SIGKILL')
    await app.exited
    stop.abort()
    await Promise.allSettled(writers)
    rmSync(copies, { recursive: true, force: true })
  }
  verify('the power-cut round')
  process.stdout.write(`power-cut round: ${figures.powerCuts} copies while writing, each whole; ${figures.violations.length} violations\n`)
}

/**
 * The shell two days fast (docs/adr/0121-a-write-without-a-time.md): a Reader's device writes with the right time,
 * then a write without progressAt (200), then the device writes again with the right time — that write must be
 * the one kept, across a SIGKILL and a start with the clock set right.
 */
async function clockAheadRound(): Promise<void> {
  const fail = (what: string): void => void figures.violations.push(`clock-ahead round: ${what}`)
  const reader = readers[0]!
  const [first, target] = [series[0]!, series[1]!]
  const headers = { authorization: `Bearer ${reader.token}`, 'content-type': 'application/json' }
  const app = start(2 * 86_400_000)
  const origin = await app.ready
  const write = async (s: { site: string; seriesId: string }, body: object) => {
    const res = await fetch(`${origin}/api/v1/bookmarks/${s.site}/${s.seriesId}`, { method: 'PATCH', headers, body: JSON.stringify(body) })
    if (res.status !== 200) fail(`a write answered ${res.status}`)
    return ((await res.json()) as { bookmark?: { progress: number; progressAt: number } }).bookmark
  }
  try {
    const synced = Date.now()
    await write(first, { progress: 1, progressAt: synced })
    acknowledged.set(`${reader.id}/${first.site}/${first.seriesId}`, { progressAt: synced, progress: 1 })
    await write(target, { progress: 500 })
    const device = Date.now() + 1
    const kept = await write(target, { progress: 501, progressAt: device })
    if (kept?.progress !== 501) fail(`a device's write after a write without progressAt answered ${JSON.stringify(kept)}`)
    acknowledged.set(`${reader.id}/${target.site}/${target.seriesId}`, { progressAt: device, progress: 501 })
  } finally {
    app.child.kill('SIGKILL')
    await app.exited
  }
  // The clock set right: the device's write is the one stored.
  const again = start()
  await again.ready
  again.child.kill('SIGKILL')
  await again.exited
  figures.clockAhead++
  verify('the clock-ahead round')
  process.stdout.write(
    `clock-ahead round: two days fast, a write without progressAt, a device's write kept; ${figures.violations.length} violations\n`,
  )
}

/** Backup → damage → restore (refused while the shell runs) → every acknowledged write present. */
async function restoreRound(): Promise<void> {
  const fail = (what: string): void => void figures.violations.push(`restore round: ${what}`)
  const quiet = { out: () => undefined, err: () => undefined }
  if ((await runBackupCommand(['--data', data], quiet)) !== 0) return fail('npm run backup failed')
  const file = join(data, STORE_FILE)
  corruptMiddlePage(file)
  const probe = new BetterSqlite3(file, { readonly: true })
  const damaged = probe.pragma('integrity_check', { simple: true }) !== 'ok'
  probe.close()
  if (!damaged) fail('the damage was not found by integrity_check')
  const app = start()
  await app.ready
  const refused: string[] = []
  const whileRunning = await runRestoreCommand(['--data', data, '--latest'], { out: () => undefined, err: (l) => refused.push(l) })
  app.child.kill('SIGKILL')
  await app.exited
  if (whileRunning !== 1 || !/quit the app first/.test(refused.join('\n')))
    fail(`restore while the shell ran answered ${whileRunning}: ${refused.join(' ')}`)
  const errors: string[] = []
  const code = await runRestoreCommand(['--data', data, '--latest'], { out: () => undefined, err: (l) => errors.push(l) })
  if (code !== 0) return fail(`npm run restore -- --latest answered ${code}: ${errors.join(' ')}`)
  figures.restores++
  verify('the restore round')
  process.stdout.write(`restore round: backup, damage, restore; ${figures.violations.length} violations\n`)
}

/**
 * The database deleted while the shell is stopped (docs/adr/0114-an-empty-start-keeps-the-backups.md): the next
 * start answers a Reader `library-missing` (not 401, which makes a Reader's page forget its token); neither
 * `npm run backup` nor the daily backup (a minute after the start, real time here) backs the empty library up;
 * `npm run restore -- --latest` brings back the newest backup holding the library, with every acknowledged write.
 */
async function emptyStartRound(): Promise<void> {
  const fail = (what: string): void => void figures.violations.push(`empty-start round: ${what}`)
  const backupDir = join(data, BACKUP_DIR)
  const before = listBackups(backupDir).map((b) => b.file)
  for (const side of ['', '-wal', '-shm']) rmSync(join(data, `${STORE_FILE}${side}`), { force: true })
  const app = start()
  const origin = await app.ready
  const answer = await fetch(`${origin}/api/v1/me`, { headers: { authorization: `Bearer ${readers[0]!.token}` } })
  const body = (await answer.json()) as { error?: { code?: string } }
  if (answer.status !== 503 || body.error?.code !== 'library-missing')
    fail(`a Reader was answered ${answer.status} ${body.error?.code ?? ''}, not 503 library-missing`)
  const said: string[] = []
  if ((await runBackupCommand(['--data', data], { out: () => undefined, err: (l) => said.push(l) })) !== 1)
    fail(`npm run backup backed the empty library up: ${said.join(' ')}`)
  // Past the daily backup's first look (a minute after the start).
  await new Promise((resolve) => setTimeout(resolve, FIRST_BACKUP_DELAY_MS + 5_000))
  app.child.kill('SIGKILL')
  await app.exited
  const after = listBackups(backupDir).map((b) => b.file)
  if (after.some((file) => !before.includes(file)))
    fail(`a backup of the empty library was made: ${after.filter((f) => !before.includes(f)).join(', ')}`)
  const errors: string[] = []
  const code = await runRestoreCommand(['--data', data, '--latest'], { out: () => undefined, err: (l) => errors.push(l) })
  if (code !== 0) return fail(`npm run restore -- --latest answered ${code}: ${errors.join(' ')}`)
  figures.emptyStarts++
  verify('the empty-start round')
  process.stdout.write(`empty-start round: delete, start, no backup of it, restore --latest; ${figures.violations.length} violations\n`)
}

figures.seconds = Math.round((Date.now() - started) / 100) / 10
console.log(JSON.stringify(figures, null, 2))
if (values.json) writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`)
if (figures.violations.length) {
  console.error(`crash suite: ${figures.violations.length} violations`)
  process.exit(1)
}
console.log(
  `crash suite: ${figures.kills} kills, ${figures.restores} restore round and ${figures.emptyStarts} empty-start round; ${figures.progressKept} of ${acknowledged.size} acknowledged Progress values and ${figures.sightingsKept} of ${sightingIds.size} Sightings kept; ${figures.refusalsKept} refusals kept; integrity ok ${figures.integrityChecks} times; ${figures.passRowsChecked} pass rows checked`,
)
