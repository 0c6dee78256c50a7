/**
 * ManhwaZ (5 known sources) writes Madara's markup: its Sites are read by the Madara family (THEMES_READ_AS in
 * scripts/known-sites.ts). On a page of our own, as the extension's ManhwaZ theme describes it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { THEMES_READ_AS } from '../../../../scripts/known-sites'
import { KNOWN_SITES } from '../known-sites'
import { seriesRules } from '../site'
import { FAMILIES } from '.'

const SERIES = 'https://ume.example/manga/kiem-si-mu'

describe('ManhwaZ, read as Madara', () => {
  it('the Madara adapter reads its page: the title, the rows, the one printed date', () => {
    const body = readFileSync(join(__dirname, '..', 'testdata', 'manhwaz.html'), 'utf8')
    const step = FAMILIES.madara.adapter().read({ url: SERIES, status: 200, contentType: 'text/html', body }, new URL(SERIES))
    expect(step).toEqual({
      kind: 'parsed',
      result: {
        title: 'Kiếm Sĩ Mù',
        coverUrl: 'https://ume.example/covers/kiem-si-mu.jpg',
        chapters: [
          { number: 33, label: 'Chương 33', url: 'https://ume.example/manga/kiem-si-mu/chuong-33' },
          { number: 32, label: 'Chương 32', url: 'https://ume.example/manga/kiem-si-mu/chuong-32' },
          {
            number: 1,
            label: 'Chương 1',
            url: 'https://ume.example/manga/kiem-si-mu/chuong-1',
            released: { at: Date.UTC(2026, 10, 1), exact: false },
          },
        ],
      },
    })
    expect(seriesRules(FAMILIES.madara.idPattern).seriesIdOf(new URL(SERIES))).toBe('kiem-si-mu')
  })

  it('the Known Sites table has its Sites as Madara ones', () => {
    expect(THEMES_READ_AS).toMatchObject({ manhwaz: 'madara' })
    const hosts = KNOWN_SITES.sites.filter((s) => ['https://manhwaz.com', 'https://umetruyenz.org'].includes(s.baseUrl))
    expect(hosts.map((s) => s.family)).toEqual(['madara', 'madara'])
  })
})
