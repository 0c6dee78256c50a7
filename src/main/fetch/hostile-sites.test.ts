/**
 * What hostile Sites still did (issue #14, item 6): a 429 or 503 with `Retry-After: 3600` was asked again after
 * a minute, and pages in windows-1252, Shift_JIS or UTF-16 were read as UTF-8 into garbage. Against the fixture
 * site over real HTTP, with the real HTTP fetcher; only the clock is fake.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ENCODED_TITLES, startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { RETRY_AFTER_CAP_MS, refusalLength, sleepAfter } from '../lanes/decisions'
import { startLanes, type Lanes } from '../lanes/lane'
import { checkSeries } from '../lanes/check'
import { silentLog } from '../log'
import { FAMILIES } from '../sites/families'
import { DEFAULT_PACE, seriesRules, type Site } from '../sites/site'
import { addBookmark } from '../store/bookmarks'
import { laneRow } from '../store/lanes'
import { recentPasses } from '../store/passes'
import { addSeries, requireSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { decodeBody } from './encoding'
import { createHttpFetcher } from './http-fetcher'
import { retryAfterMs } from './retry-after'

const MIN = 60_000
const HOUR = 60 * MIN

describe('Retry-After, read', () => {
  const NOW = Date.UTC(2026, 0, 1, 12, 0, 0)
  it.each([
    ['delay-seconds', '3600', null, 3_600_000],
    ['an HTTP-date, from the response’s own Date', 'Thu, 01 Jan 2026 13:00:00 GMT', 'Thu, 01 Jan 2026 12:30:00 GMT', 1_800_000],
    ['an HTTP-date with no Date header: from our clock', 'Thu, 01 Jan 2026 13:00:00 GMT', null, 3_600_000],
    ['a date in the past: now', 'Thu, 01 Jan 2026 11:00:00 GMT', null, 0],
    ['none', null, null, undefined],
    ['garbage', 'soon', null, undefined],
    ['a negative number', '-5', null, undefined],
  ])('%s', (_name, value, date, expected) => {
    expect(retryAfterMs(value, NOW, date)).toBe(expected)
  })

  it.each([
    ['no Retry-After: the backoff', undefined, 900_000, false],
    ['shorter than the backoff: the backoff', 60_000, 900_000, false],
    ['an hour: an hour', 3_600_000, 3_600_000, false],
    ['a year: a day, and capped', 365 * 86_400_000, RETRY_AFTER_CAP_MS, true],
  ])('a refusal’s length — %s', (_name, asked, ms, capped) => {
    expect(refusalLength({ refusalBackoffMs: 900_000 }, asked)).toEqual({ ms, capped })
  })

  it('a refusing Lane sleeps its refusal out, bounded by the refusal’s own length, not the backoff', () => {
    const pace = { ...DEFAULT_PACE }
    const facts = { skip: 'refusing' as const, now: 0, pace, browserDownForMs: 0, cutShort: false, fetched: false }
    expect(sleepAfter({ ...facts, lane: { paused_until: 0, refuse_until: HOUR, refuse_ms: HOUR } })).toBe(HOUR)
    expect(sleepAfter({ ...facts, lane: { paused_until: 0, refuse_until: HOUR, refuse_ms: 0 } })).toBe(pace.refusalBackoffMs)
  })
})

describe('a page’s encoding, sniffed', () => {
  const bytes = (s: string, encoding: BufferEncoding = 'latin1') => new Uint8Array(Buffer.from(s, encoding))
  it.each([
    [
      'a UTF-8 BOM beats the header',
      Buffer.from([0xef, 0xbb, 0xbf, 0x63, 0x61, 0x66, 0xc3, 0xa9]),
      'text/html; charset=shift_jis',
      'café',
      'bom',
    ],
    ['a UTF-16LE BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('狼', 'utf16le')]), 'text/html', '狼', 'bom'],
    ['the header’s charset', Buffer.from([0x91, 0xe6]), 'text/html; charset=Shift_JIS', '第', 'header'],
    ['a quoted charset', Buffer.from([0xe9]), 'text/html; charset="iso-8859-1"', 'é', 'header'],
    ['an unknown label is none: UTF-8', Buffer.from('é', 'utf8'), 'text/html; charset=klingon', 'é', 'default'],
    ['no declaration, valid UTF-8', Buffer.from('é', 'utf8'), 'text/html', 'é', 'default'],
    [
      'no declaration, not UTF-8: windows-1252',
      Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94]),
      'text/html',
      'Café “q”',
      'fallback',
    ],
  ])('%s', (_name, body, contentType, text, source) => {
    expect(decodeBody(new Uint8Array(body), contentType)).toMatchObject({ text, source })
  })

  it.each([
    ['<meta charset>', bytes('<!doctype html><head><meta charset="shift_jis"><title>'), 'shift_jis'],
    ['<meta http-equiv>', bytes(`<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">`), 'windows-1252'],
    ['<meta charset> in EUC-KR', Buffer.concat([bytes('<meta charset="euc-kr"><h1>'), Buffer.from([0xc7, 0xd1, 0xb1, 0xb9])]), 'euc-kr'],
    [
      '<meta http-equiv> in GBK',
      Buffer.concat([bytes('<meta http-equiv=content-type content="text/html;charset=gbk">'), Buffer.from([0xd6, 0xd0])]),
      'gbk',
    ],
    ['an XML declaration', bytes('<?xml version="1.0" encoding="Shift_JIS"?><html>'), 'shift_jis'],
  ])('reads the page’s own declaration: %s', (_name, body, encoding) => {
    expect(decodeBody(new Uint8Array(body), 'text/html')).toMatchObject({ encoding, source: 'meta' })
  })

  it('reads EUC-KR and GBK text declared in the header', () => {
    expect(decodeBody(new Uint8Array([0xc7, 0xd1, 0xb1, 0xb9]), 'text/html; charset=EUC-KR')).toMatchObject({
      text: '한국',
      source: 'header',
    })
    expect(decodeBody(new Uint8Array([0xd6, 0xd0, 0xce, 0xc4]), 'text/html; charset=gb2312')).toMatchObject({
      text: '中文',
      encoding: 'gbk',
      source: 'header',
    })
  })

  it.each([
    ['past the first 1024 bytes', bytes(`${' '.repeat(1024)}<meta charset="shift_jis">`)],
    ['a charset in another meta’s content', bytes(`<meta name="description" content="charset=shift_jis">`)],
    ['inside a comment', bytes('<!-- <meta charset="shift_jis"> --><p>caf\xe9</p>')],
  ])('ignores a <meta> %s', (_name, body) => {
    expect(decodeBody(new Uint8Array(body), 'text/html').source).not.toBe('meta')
  })

  it('a JSON body is not searched for <meta>', () => {
    expect(decodeBody(bytes('{"d":"<meta charset=shift_jis>\xe9"}'), 'application/json')).toMatchObject({ source: 'fallback' })
  })

  it('a <meta> declaring UTF-16 is read as UTF-8, as browsers do', () => {
    expect(decodeBody(bytes('<meta charset="utf-16"><p>é</p>', 'utf8'), 'text/html')).toMatchObject({
      encoding: 'utf-8',
      text: '<meta charset="utf-16"><p>é</p>',
    })
  })
})

describe('against the fixture site', () => {
  let store: TestStore
  let clock: FakeClock
  let fixture: FixtureSite
  let alice: number
  const lanes: Lanes[] = []
  beforeEach(async () => {
    store = openTestStore()
    clock = new FakeClock()
    fixture = await startFixtureSite({ now: () => clock.now() })
    alice = await seedReader(store.db, 'alice')
  })
  afterEach(async () => {
    await Promise.all(lanes.splice(0).map((l) => l.stop()))
    await fixture.close()
    await store.dispose()
  })

  const http = () => createHttpFetcher({ timeoutMs: 2_000, now: () => clock.now() })
  const site = (key: string, family: 'slow-down' | 'encoded', pace = {}): Site => ({
    key,
    name: key,
    hosts: [fixture.host],
    fetcher: 'http',
    fallback: 'none',
    adapter: FAMILIES.madara.adapter(),
    ...seriesRules(new RegExp(`^/${family}/manga/([^/?#]+)`)),
    pace: { ...DEFAULT_PACE, ...pace },
    origin: 'sites.json',
  })
  async function bookmark(s: Site, path: string): Promise<{ site: string; seriesId: string }> {
    const url = `${fixture.origin}${path}`
    const seriesId = s.seriesIdOf(new URL(url))!
    await addSeries(store.db, { site: s.key, seriesId, seriesUrl: url, now: 1 })
    await addBookmark(store.db, { site: s.key, seriesId, readerId: alice, now: 1 })
    return { site: s.key, seriesId }
  }

  describe.each([
    ['windows-1252', 'header'],
    ['windows-1252', 'meta'],
    ['windows-1252', 'none'],
    ['shift_jis', 'header'],
    ['shift_jis', 'http-equiv'],
    ['utf-16le', 'bom'],
    ['utf-16be', 'bom'],
    ['utf-16le', 'header'],
  ] as const)('a page in %s, declared by %s', (charset, via) => {
    it('is read in its own encoding: the title exactly, and the Latest Chapter', async () => {
      const s = site('encoded', 'encoded')
      const path = `/encoded/manga/wolf-${charset.replace('_', '-')}/?charset=${charset}&via=${via}`
      const key = await bookmark(s, path)
      const report = await checkSeries({ db: store.db, clock, log: silentLog }, s, http(), {
        site: key.site,
        series_id: key.seriesId,
        series_url: `${fixture.origin}${path}`,
      })
      expect(report.outcome, report.reason).toBe('chapter')
      const row = await requireSeries(store.db, key)
      expect(row.title).toBe(ENCODED_TITLES[charset])
      expect(row.latest_chapter).toBe(fixture.series(path).latest)
    })
  })

  it.each([
    ['429 with Retry-After: 3600', '?status=429&retry=3600', 3_600_000],
    ['503 with Retry-After: 3600', '?status=503&retry=3600', 3_600_000],
    ['429 with Retry-After as a date two hours ahead', '?status=429&retry=in-7200', 7_200_000],
    ['429 with no Retry-After', '?status=429', undefined],
  ])('%s is a refusal carrying what the Site asked', async (_name, query, asked) => {
    const result = await http().fetch({ url: `${fixture.origin}/slow-down/manga/x/${query}`, method: 'GET' }, site('slow', 'slow-down'))
    expect(result).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/^HTTP (429|503)/) })
    expect(result.kind === 'refused' ? result.retryAfterMs : 'not refused').toBe(asked)
  })

  it('a 503 with no Retry-After is an error, as before', async () => {
    const result = await http().fetch({ url: `${fixture.origin}/slow-down/manga/x/?status=503`, method: 'GET' }, site('slow', 'slow-down'))
    expect(result).toMatchObject({ kind: 'page', page: { status: 503 } })
  })

  async function laneOn(s: Site, path: string) {
    await bookmark(s, path)
    const started = await startLanes({ db: store.db, sites: [s], fetchers: { http: http() }, clock, log: silentLog })
    lanes.push(started)
    const hitsOf = () => fixture.hits.filter((h) => h.path.startsWith('/slow-down/')).map((h) => h.at)
    await clock.runUntil(() => hitsOf().length === 1, { withinMs: HOUR })
    return hitsOf
  }

  it('a Site answering 429 with Retry-After: 3600 is not asked again for an hour — then it is', async () => {
    // A rest of 2 minutes and a 15-minute backoff: without Retry-After it would be asked again in 15 minutes.
    const s = site('slow', 'slow-down', { restMs: 2 * MIN, minGapMs: 1_000, idleRequeryMs: 30_000 })
    const hitsOf = await laneOn(s, '/slow-down/manga/x/?status=429&retry=3600')
    const first = hitsOf()[0]!
    expect(await laneRow(store.db, 'slow')).toMatchObject({ refuse_until: first + HOUR, refuse_ms: HOUR })
    await clock.runQuiet(HOUR - MIN)
    expect(hitsOf()).toEqual([first])
    const passes = await recentPasses(store.db, 'slow', 1000)
    expect(passes.filter((p) => p.skip === 'refusing').length).toBeGreaterThan(0)
    await clock.runQuiet(3 * MIN)
    expect(hitsOf()).toHaveLength(2)
    expect(hitsOf()[1]! - first).toBeGreaterThanOrEqual(HOUR)
  })

  it('a Site asking for a year is asked again after a day, the longest the app waits', async () => {
    const s = site('slow', 'slow-down', { restMs: 2 * MIN, minGapMs: 1_000 })
    const hitsOf = await laneOn(s, `/slow-down/manga/x/?status=503&retry=${365 * 86_400}`)
    const first = hitsOf()[0]!
    expect((await laneRow(store.db, 'slow')).refuse_until).toBe(first + RETRY_AFTER_CAP_MS)
    await clock.runQuiet(RETRY_AFTER_CAP_MS - MIN)
    expect(hitsOf()).toHaveLength(1)
    await clock.runQuiet(5 * MIN)
    expect(hitsOf()).toHaveLength(2)
  })

  it('a wall clock set back keeps a Retry-After refusal to its own length, not the shorter backoff', async () => {
    const s = site('slow', 'slow-down', { restMs: 2 * MIN, minGapMs: 1_000, idleRequeryMs: 30_000 })
    const hitsOf = await laneOn(s, '/slow-down/manga/x/?status=429&retry=3600')
    clock.stepWall(-6 * HOUR)
    // The refusing Lane wakes after the hour it slept, finds the refusal 6 hours ahead, and bounds it to the
    // refusal's own hour from now — not to the 15-minute backoff, which would ask the Site again too soon.
    await clock.runQuiet(HOUR + MIN)
    const left = (await laneRow(store.db, 'slow')).refuse_until - clock.now()
    expect(left).toBeGreaterThan(HOUR - 2 * MIN)
    expect(left).toBeLessThanOrEqual(HOUR)
    expect(hitsOf()).toHaveLength(1)
    // And it never waits the 6 hours out.
    await clock.runQuiet(HOUR + 5 * MIN)
    expect(hitsOf()).toHaveLength(2)
  })
})
