import { describe, expect, it } from 'vitest'
import webpush from 'web-push'
import { contactSubject } from '../../shared/settings'
import { subscriptionKeys } from '../testing/receivers'
import { channelRequest, headerText, pushPayload, webhookBody } from './channels'
import { STAND_IN_SUBJECT, type VapidKeys } from './vapid'
import {
  buildDigests,
  digestText,
  localMinutes,
  MAX_NOTICES,
  mergeDigests,
  pushNotices,
  quietUntil,
  type Digest,
  type DigestChapter,
} from './digest'
import type { NotifyChannelRow, NotifyChapterRow } from '../store/schema'

const chapter = (over: Partial<DigestChapter> = {}): DigestChapter => ({
  site: 'madara',
  seriesId: 'solo-lantern',
  title: 'Solo Lantern',
  chapter: 46,
  label: 'Chapter 46',
  chapterUrl: 'https://scans.example/manga/solo-lantern/chapter-46/',
  count: 1,
  ...over,
})
const digest = (...newChapters: DigestChapter[]): Digest => ({ reader: 'Aiko', newChapters })

describe('a message read at a glance', () => {
  it('names the one Series and its chapter in the title, and never says it twice', () => {
    const text = digestText(digest(chapter()))
    expect(text.title).toBe('Solo Lantern — Ch 46')
    expect(text.body).toBe('A new chapter to read')
    expect(text.body).not.toContain('46')
  })

  it('keeps a label that says more than the number, and drops one that only repeats it', () => {
    expect(digestText(digest(chapter({ label: 'Chapter 46: The Return' }))).body).toBe('Chapter 46: The Return')
    for (const label of ['Ch. 46', 'ch 46', '46', 'Chapter 046', 'Episode 46'])
      expect(digestText(digest(chapter({ label }))).body).toBe('A new chapter to read')
    expect(digestText(digest(chapter({ chapter: 10.5, label: 'Chapter 10.5' }))).title).toBe('Solo Lantern — Ch 10.5')
    expect(digestText(digest(chapter({ chapter: 10.5, label: 'Chapter 10.5' }))).body).toBe('A new chapter to read')
  })

  it('counts chapters and Series in the title of several, one line per Series in the body', () => {
    const text = digestText(digest(chapter({ count: 2 }), chapter({ seriesId: 'iron-bloom', title: 'Iron Bloom', chapter: 12 })))
    expect(text.title).toBe('3 new chapters in 2 Series')
    expect(text.body).toBe('Solo Lantern — Ch 46 (2 new)\nIron Bloom — Ch 12')
  })

  it('says how many chapters one Series gained when it gained several', () => {
    expect(digestText(digest(chapter({ count: 3 })))).toEqual({ title: 'Solo Lantern — Ch 46', body: '3 new chapters, up to Ch 46' })
  })

  it('names a Series without a title by its id, and counts the Series past ten', () => {
    expect(digestText(digest(chapter({ title: '  ' }))).title).toBe('solo-lantern — Ch 46')
    const many = Array.from({ length: 12 }, (_, i) => chapter({ seriesId: `s${i}`, title: `S${i}` }))
    const text = digestText(digest(...many))
    expect(text.title).toBe('12 new chapters in 12 Series')
    expect(text.body.split('\n')).toHaveLength(11)
    expect(text.body).toMatch(/and 2 more Series$/)
  })

  it('counts every New Chapter of a pass, one entry per Series at its highest', () => {
    const row = (chapterNo: number, series = 'solo-lantern'): NotifyChapterRow =>
      ({
        site: 'madara',
        series_id: series,
        title: series,
        chapter: chapterNo,
        label: '',
        url: `u${chapterNo}`,
        previous_check_at: 10,
      }) as NotifyChapterRow
    const holders = new Map([
      ['madara/solo-lantern', [{ readerId: 1, name: 'Aiko', status: 'reading', unreadCount: 3, bookmarkedAt: 1, chapterUrl: '' }]],
    ]) as unknown as Parameters<typeof buildDigests>[1]
    const { readers } = buildDigests([row(45), row(46), row(44)], holders, () => ({
      minUnread: 1,
      quietHours: null,
      timeZone: '',
      muted: new Set(),
    }))
    expect(readers.get(1)!.newChapters).toMatchObject([{ chapter: 46, count: 3 }])
  })

  it('adds the counts of two held digests (quiet hours), and takes the higher chapter', () => {
    const merged = mergeDigests(digest(chapter({ chapter: 45 })), digest(chapter({ chapter: 46, count: 2 })))
    expect(merged.newChapters).toMatchObject([{ chapter: 46, count: 3 }])
    expect(mergeDigests(digest(chapter()), digest(chapter())).newChapters).toMatchObject([{ count: 1 }])
  })
})

describe('where each channel puts the words', () => {
  it('tags a push by its Series, one notification each, and sums up past MAX_NOTICES', () => {
    const two = pushNotices(digest(chapter(), chapter({ seriesId: 'iron-bloom', title: 'Iron Bloom', chapter: 12 })))
    expect(two.map((n) => [n.title, n.tag])).toEqual([
      ['Solo Lantern — Ch 46', 'mb-series:madara/solo-lantern'],
      ['Iron Bloom — Ch 12', 'mb-series:madara/iron-bloom'],
    ])
    const many = pushNotices(digest(...Array.from({ length: MAX_NOTICES + 1 }, (_, i) => chapter({ seriesId: `s${i}` }))))
    expect(many).toHaveLength(1)
    expect(many[0]!.title).toBe(`${MAX_NOTICES + 1} new chapters in ${MAX_NOTICES + 1} Series`)
    const payload = JSON.parse(pushPayload(digest(chapter()))) as { notices: unknown[]; tag: string }
    expect(payload.tag).toBe('mb-series:madara/solo-lantern')
  })

  it('gives ntfy a title header it can carry: ASCII as is, anything else RFC 2047 encoded', () => {
    expect(headerText('3 new chapters in 2 Series')).toBe('3 new chapters in 2 Series')
    const encoded = headerText('薬屋のひとりごと — Ch 46')
    expect(encoded).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/)
    expect(Buffer.from(encoded.slice(10, -2), 'base64').toString('utf8')).toBe('薬屋のひとりごと — Ch 46')
  })

  it('writes the webhook text as the title then the body', () => {
    const body = JSON.parse(webhookBody(digest(chapter()), 'd-1')) as { text: string }
    expect(body.text).toBe('Solo Lantern — Ch 46\nA new chapter to read')
  })
})

describe("the owner's contact signs every push", () => {
  const keys = webpush.generateVAPIDKeys()
  const sub = subscriptionKeys()
  const channel = {
    kind: 'webpush',
    target: 'https://push.example/abc',
    secret: JSON.stringify({ p256dh: sub.p256dh, auth: sub.auth }),
  } as NotifyChannelRow
  const subjectOf = (vapid: VapidKeys) => {
    const headers = channelRequest(channel, digest(chapter()), 'd-1', () => vapid, Date.now()).headers
    const auth = String(Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')![1])
    const jwt = /t=([^,]+)/.exec(auth)![1]!
    return (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub
  }

  it('is the VAPID subject once given, and the stand-in until then', () => {
    expect(subjectOf({ ...keys, subject: 'mailto:owner@home.example' })).toBe('mailto:owner@home.example')
    expect(subjectOf(keys)).toBe(STAND_IN_SUBJECT)
  })

  it('is an e-mail address or an https address, nothing else', () => {
    expect(contactSubject('owner@home.example')).toBe('mailto:owner@home.example')
    expect(contactSubject('mailto:owner@home.example')).toBe('mailto:owner@home.example')
    expect(contactSubject('https://home.example/contact')).toBe('https://home.example/contact')
    for (const bad of ['owner', 'http://home.example/', 'owner@home', '']) expect(contactSubject(bad)).toBeNull()
  })
})

describe('quiet hours in the time zone each Reader gave', () => {
  it('reads the clock of each named zone, every time (one formatter kept per zone)', () => {
    const at = Date.UTC(2026, 0, 5, 23, 30)
    for (let i = 0; i < 2; i++) {
      expect(localMinutes(at, 'UTC')).toBe(23 * 60 + 30)
      expect(localMinutes(at, 'Asia/Tokyo')).toBe(8 * 60 + 30)
      expect(localMinutes(at, 'America/New_York')).toBe(18 * 60 + 30)
    }
    const quiet = { quietHours: { from: '22:00', to: '07:00' }, timeZone: 'Asia/Tokyo' }
    expect(quietUntil(quiet, at)).toBeNull()
    expect(quietUntil({ ...quiet, timeZone: 'UTC' }, at)).toBe(Date.UTC(2026, 0, 6, 7, 0))
  })

  it('refuses an unknown zone each time it is asked', () => {
    expect(() => localMinutes(0, 'Nowhere/Atlantis')).toThrow(RangeError)
    expect(() => localMinutes(0, 'Nowhere/Atlantis')).toThrow(RangeError)
  })
})
