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
