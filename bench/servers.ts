/**
 * The two servers `sync-throughput` compares, each started in a child process of its own:
 *   real — the app's sync endpoint (Fastify, zod, bearer auth, rate limiting, Kysely) on a real SQLite file;
 *   bare — node:http doing the same SQLite update with better-sqlite3, nothing else.
 * Usage: tsx bench/servers.ts real|bare DIR READERS   → prints {"port":…,"tokens":[…]} on one line.
 */
import { SitePacer } from '../src/main/lanes/pacer'
import { createServer } from 'node:http'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { systemClock } from '../src/main/clock'
import { BrowserHealth } from '../src/main/fetch/browser-health'
import { createHttpFetcher } from '../src/main/fetch/http-fetcher'
import { silentLog } from '../src/main/log'
import { createHttpServer, listen } from '../src/main/server/http'
import { createRegistry } from '../src/main/sites/registry'
import { addBookmark } from '../src/main/store/bookmarks'
import { openStore, STORE_FILE } from '../src/main/store/database'
import { addSeries } from '../src/main/store/series'
import { registerSyncApi } from '../src/main/sync/api'
import { createReader, hashToken } from '../src/main/use-cases/reader-tokens'

const [kind, dir, count] = process.argv.slice(2) as [string, string, string]
const readers = Number(count)

async function seed(): Promise<string[]> {
  const store = openStore(join(dir, STORE_FILE), { now: 1 })
  await addSeries(store.db, { site: 'bench', seriesId: 'series', seriesUrl: 'https://bench.example/manga/series/', now: 1 })
  const tokens: string[] = []
  for (let i = 0; i < readers; i++) {
    const { reader, token } = await createReader(store.db, `reader ${i}`, 1)
    await addBookmark(store.db, { site: 'bench', seriesId: 'series', readerId: reader.id, now: 1 })
    tokens.push(token)
  }
  await store.close()
  return tokens
}

async function real(tokens: string[]) {
  const store = openStore(join(dir, STORE_FILE), { now: Date.now() })
  const app = createHttpServer({ log: silentLog })
  const registry = createRegistry([])
  await registerSyncApi(
    app,
    {
      db: store.db,
      clock: systemClock,
      acquire: {
        db: store.db,
        registry,
        fetchers: { http: createHttpFetcher() },
        health: new BrowserHealth(systemClock),
        pacer: new SitePacer(systemClock),
        clock: systemClock,
        log: silentLog,
      },
    },
    // The limit is far above the load, so the plugin runs on every request but never refuses one.
    { rateLimit: { max: 10_000_000, windowMs: 60_000 } },
  )
  const { port } = await listen(app, 0)
  console.log(JSON.stringify({ port, tokens }))
}

async function bare(tokens: string[]) {
  const sqlite = new BetterSqlite3(join(dir, STORE_FILE))
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('synchronous = FULL')
  const reader = sqlite.prepare('SELECT id FROM readers WHERE token_hash = ?')
  const update = sqlite.prepare(
    'UPDATE bookmarks SET progress = ?, progress_at = ?, updated_at = ? WHERE reader_id = ? AND site = ? AND series_id = ? AND progress_at < ?',
  )
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const token = (req.headers.authorization ?? '').slice(7)
      const row = reader.get(hashToken(token)) as { id: number } | undefined
      const [, , , , site, seriesId] = (req.url ?? '').split('/')
      const { progress, progressAt } = JSON.parse(body) as { progress: number; progressAt: number }
      update.run(progress, progressAt, Date.now(), row?.id ?? 0, site, seriesId, progressAt)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ progress, progressAt }))
    })
  })
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number }
    console.log(JSON.stringify({ port: address.port, tokens }))
  })
}

const tokens = await seed()
if (kind === 'real') await real(tokens)
else await bare(tokens)

// Exit cleanly on a signal, so a --cpu-prof run writes its profile.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0))
