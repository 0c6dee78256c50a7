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
