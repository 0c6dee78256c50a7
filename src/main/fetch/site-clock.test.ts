/**
 * The Site's clock as its responses tell it: what the adaptive cadence learns release times on. Pure reading of
 * `Date` and `Age`, then the real HTTP fetcher against a real server on loopback.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { testSite } from '../testing/fakes'
import { createHttpFetcher } from './http-fetcher'
import { MAX_SITE_CLOCK_OFFSET_MS, siteClockOffset, siteDate } from './site-clock'

const NOON = Date.UTC(2026, 10, 3, 12, 0, 0)

describe("the Site's clock, read from a response", () => {
  it.each([
    ['its Date', 'Tue, 03 Nov 2026 12:00:00 GMT', null, NOON],
    ['its Date plus the Age a cache added', 'Tue, 03 Nov 2026 12:00:00 GMT', '90', NOON + 90_000],
    ['an Age that is not a number adds nothing', 'Tue, 03 Nov 2026 12:00:00 GMT', 'soon', NOON],
    ['no Date', null, '90', undefined],
    ['a Date that is not a date', 'yesterday-ish', null, undefined],
  ])('%s', (_name, date, age, expected) => {
    expect(siteDate(date, age)).toBe(expected)
  })

  it('the offset is the Site ahead of the wall clock; too far to be the same clock, none', () => {
    expect(siteClockOffset(NOON + 5_000, NOON)).toBe(5_000)
    expect(siteClockOffset(NOON - 3 * 3_600_000, NOON)).toBe(-3 * 3_600_000)
    expect(siteClockOffset(undefined, NOON)).toBeUndefined()
    expect(siteClockOffset(NOON + MAX_SITE_CLOCK_OFFSET_MS, NOON)).toBe(MAX_SITE_CLOCK_OFFSET_MS)
    expect(siteClockOffset(NOON + MAX_SITE_CLOCK_OFFSET_MS + 1, NOON)).toBeUndefined()
    expect(siteClockOffset(0, NOON)).toBeUndefined()
  })
})

describe('the HTTP fetcher dates each page by the Site', () => {
  let server: Server | undefined
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

  async function serve(headers: Record<string, string>): Promise<string> {
    server = createServer((_req, res) => {
      res.sendDate = false
      res.writeHead(200, { 'content-type': 'text/html', ...headers })
      res.end('<html><body>ok</body></html>')
    })
    await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready))
    return `127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  it('a page carries its Date and Age; a page without them carries none', async () => {
    const host = await serve({ date: 'Tue, 03 Nov 2026 12:00:00 GMT', age: '30' })
    const fetcher = createHttpFetcher()
    const site = testSite('a', { hosts: [host] })
    const dated = await fetcher.fetch({ url: `http://${host}/manga/x`, method: 'GET' }, site)
    expect(dated).toMatchObject({ kind: 'page', page: { status: 200, date: NOON + 30_000 } })
    await new Promise<void>((done) => server!.close(() => done()))
    const bare = await serve({})
    const undated = await fetcher.fetch({ url: `http://${bare}/manga/x`, method: 'GET' }, testSite('b', { hosts: [bare] }))
    expect(undated.kind).toBe('page')
    expect(undated.kind === 'page' && 'date' in undated.page).toBe(false)
  })
})
