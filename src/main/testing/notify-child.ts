/**
 * A child process running the core for the outbox's crash test (notify/outbox-crash.test.ts). Run with tsx:
 * `check` records a New Chapter (a real check on a fake fetcher) and says `recorded`, then waits to be killed
 * (`check-digest` digests it into the outbox too and says `digested`);
 * `notify` digests what waits and delivers the outbox, says `delivered`, then waits to be killed. Used only by tests.
 */
import { systemClock } from '../clock'
import { startCore } from '../core'
import { checkSeries } from '../lanes/check'
import { silentLog } from '../log'
import { inlineReader } from '../sites/page-reader'
import { FakeFetcher } from './fakes'
import { testSite } from './fakes'

const [dataDir, mode] = process.argv.slice(2)
const site = testSite('a')
const http = new FakeFetcher('http', systemClock, (r) => ({
  kind: 'page',
  page: { url: r.url, status: 200, contentType: 'text/plain', body: '42' },
}))
const core = await startCore({
  dataDir: dataDir!,
  clock: systemClock,
  log: silentLog,
  sites: [site],
  http,
  dailyBackups: false,
  reader: inlineReader,
})
if (mode === 'check' || mode === 'check-digest') {
  await checkSeries({ db: core.store.db, clock: systemClock, log: silentLog }, site, http, {
    site: 'a',
    series_id: 'one',
    series_url: 'https://a.example/manga/one',
    previous_checked_at: 1_000,
  })
  process.stdout.write('recorded\n')
  if (mode === 'check-digest') {
    await core.notifier.digest()
    process.stdout.write('digested\n')
  }
} else {
  await core.notifier.digest()
  await core.notifier.deliverDue()
  process.stdout.write('delivered\n')
}
setInterval(() => undefined, 60_000)
