// @vitest-environment happy-dom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import type { Bookmark } from '../../../shared/sync-schemas'
import UpcomingView from '../UpcomingView.vue'

const NOW = Date.UTC(2026, 0, 5, 12, 0)

const bookmark = (seriesId: string, url: string): Bookmark => ({
  site: 'a',
  seriesId,
  status: 'reading',
  progress: 10,
  progressAt: 1,
  createdAt: 1,
  updatedAt: 1,
  unread: false,
  unreadCount: 0,
  nextChapter: null,
  expectedAt: NOW + 3_600_000,
  series: {
    title: seriesId,
    url,
    latestChapter: 10,
    latestChapterLabel: '',
    latestChapterUrl: '',
    latestSource: 'check',
    latestChangedAt: 1,
    latestCheckedAt: 1,
    finished: false,
  },
})

describe('Upcoming links', () => {
  it('links a Series only to an http(s) URL: a javascript: or data: URL is no link', () => {
    const wrapper = mount(UpcomingView, {
      props: {
        now: NOW,
        bookmarks: [
          bookmark('good', 'https://a.example/manga/good/'),
          bookmark('script', 'javascript:alert(document.cookie)'),
          bookmark('data', 'data:text/html,<script>alert(1)</script>'),
        ],
      },
    })
    const links = wrapper.findAll('a')
    expect(links).toHaveLength(3)
    const hrefs = Object.fromEntries(links.map((a) => [a.text(), a.attributes('href')]))
    expect(hrefs).toEqual({ good: 'https://a.example/manga/good/', script: undefined, data: undefined })
  })
})
