// @vitest-environment happy-dom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import type { Bookmark, ChaptersAnswer } from '../../../shared/sync-schemas'
import BookmarkCard from '../BookmarkCard.vue'

const bookmark = (latestSource: Bookmark['series']['latestSource']): Bookmark => ({
  site: 'a',
  seriesId: 'tower',
  status: 'reading',
  progress: 10,
  progressAt: 1,
  createdAt: 1,
  updatedAt: 1,
  unread: true,
  unreadCount: 2,
  nextChapter: null,
  expectedAt: null,
  series: {
    title: 'Tower',
    url: 'https://a.example/manga/tower/',
    latestChapter: 12,
    latestChapterLabel: '',
    latestChapterUrl: '',
    latestSource,
    latestChangedAt: 1,
    latestCheckedAt: 1,
    finished: false,
  },
})

/** No list is opened in these tests. */
const loadChapters = (): Promise<ChaptersAnswer> => Promise.reject(new Error('not opened'))

describe("a card's Latest Chapter says who says so (docs/adr/0081-one-reader-bounded.md)", () => {
  it('one a Reader reported, not yet judged by a check, is shown as reported by a Reader', () => {
    const text = mount(BookmarkCard, { props: { bookmark: bookmark('sighting'), loadChapters } })
      .find('.meta')
      .text()
    expect(text).toContain('Latest 12 (reported by a Reader, not yet checked)')
  })

  it('one a check found is shown as it is', () => {
    const text = mount(BookmarkCard, { props: { bookmark: bookmark('check'), loadChapters } })
      .find('.meta')
      .text()
    expect(text).toContain('Latest 12')
    expect(text).not.toContain('reported')
  })
})

describe('a card whose Series page is gone (docs/adr/0113-a-series-whose-page-is-gone.md)', () => {
  it('says so in words, with what can be done', () => {
    const gone = bookmark('check')
    gone.series.gone = { checks: 3, since: Date.now() - 2 * 86_400_000, status: 404 }
    const text = mount(BookmarkCard, { props: { bookmark: gone, loadChapters } })
      .find('[data-gone]')
      .text()
    expect(text).toBe(
      'The Site answers “not found” (HTTP 404) for this page: 3 checks in a row, for 2 d — open the Site to find the Series; the app’s owner can change its URL.',
    )
  })

  it('a card with no gone run says nothing of it', () => {
    expect(
      mount(BookmarkCard, { props: { bookmark: bookmark('check'), loadChapters } })
        .find('[data-gone]')
        .exists(),
    ).toBe(false)
  })
})

describe('"caught up" only when nothing is unread', () => {
  const byDefault = (unread: boolean): Bookmark => ({
    ...bookmark('check'),
    progressAt: 0,
    progress: 45,
    unread,
    unreadCount: unread ? 1 : 0,
  })
  const meta = (b: Bookmark) =>
    mount(BookmarkCard, { props: { bookmark: b, loadChapters } })
      .find('.meta')
      .text()

  it('a bookmark caught up when made, with a chapter out since, says how far it is read', () => {
    expect(meta(byDefault(true))).toContain('read up to chapter 45')
    expect(meta(byDefault(true))).not.toContain('caught up')
  })

  it('one with nothing unread is caught up', () => {
    expect(meta(byDefault(false))).toContain('caught up')
  })
})

describe('a card says when the app last checked its Series (issue 43, say why)', () => {
  it('"checked 5 min ago" against the clock it is given; nothing before the first check', () => {
    const b = bookmark('check')
    b.series.latestCheckedAt = 1_800_000_000_000
    const card = mount(BookmarkCard, { props: { bookmark: b, now: b.series.latestCheckedAt + 5 * 60_000, loadChapters } })
    expect(card.find('[data-checked]').text()).toBe('· checked 5 min ago')
    b.series.latestCheckedAt = 0
    expect(
      mount(BookmarkCard, { props: { bookmark: b, loadChapters } })
        .find('[data-checked]')
        .exists(),
    ).toBe(false)
  })
})

describe('a card says when the app checks its Series next, and why (issue 43, ADR 0218)', () => {
  const at = 1_800_000_000_000
  it("the next check and its reason; a paused Site's words in the accent; nothing when unknown", () => {
    const b = bookmark('check')
    const planned = mount(BookmarkCard, {
      props: { bookmark: b, now: at, loadChapters, check: { kind: 'next-check', at: at + 3 * 3_600_000, why: 'feed', everyMs: 3_600_000 } },
    })
    expect(planned.find('[data-next-check]').text()).toBe('next check in about 3 h — this Site’s updates page shows it first')
    expect(planned.find('[data-next-check]').classes()).not.toContain('attention')
    const paused = mount(BookmarkCard, { props: { bookmark: b, now: at, loadChapters, check: { kind: 'paused', until: at + 60_000 } } })
    expect(paused.find('[data-next-check]').text()).toMatch(/^not checked: Site paused until /)
    expect(paused.find('[data-next-check]').classes()).toContain('attention')
    expect(
      mount(BookmarkCard, { props: { bookmark: b, loadChapters } })
        .find('[data-next-check]')
        .exists(),
    ).toBe(false)
  })
})
