// @vitest-environment happy-dom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import type { ImportPreviewView } from '../../../../shared/admin-api'
import ImportPreview from '../ImportPreview.vue'

const preview = (over: Partial<ImportPreviewView> = {}): ImportPreviewView => ({
  fileName: 'library.tachibk',
  format: 'mihon',
  reader: { id: 1, name: 'Aiko' },
  entries: 5,
  sites: [{ site: 'mangadex', name: 'MangaDex', add: 2, present: 1, progress: 1, newSeries: 2, skipped: 0 }],
  skipped: [{ reason: 'unmapped-source', count: 2, examples: ['manga 4: /manga/solo/'] }],
  unknownSources: [{ sourceId: '42', name: 'Asura Scans', count: 2, example: '/manga/solo/' }],
  sources: [],
  unknownHosts: [],
  sitesToAdd: [],
  mappings: [],
  readersToCreate: [],
  siteChoices: [
    { site: 'asura', name: 'Asura' },
    { site: 'mangadex', name: 'MangaDex' },
  ],
  totals: { add: 2, present: 1, progress: 1, newSeries: 2, skipped: 2 },
  ...over,
})

describe('the import preview', () => {
  it('names every backup source with how many manga and what becomes of them, moved addresses too', () => {
    const sources: ImportPreviewView['sources'] = [
      {
        sourceId: '1024627298672457456',
        name: 'Manganato',
        outcome: 'site-to-add',
        count: 146,
        resolved: 146,
        siteName: 'Manganato',
        family: 'MangaBox',
        moved: [{ from: 'chapmanganato.com', to: 'www.natomanga.com', count: 73 }],
      },
      { sourceId: '7', name: 'Bato.to', outcome: 'not-readable', count: 12, resolved: 0, moved: [] },
      { sourceId: '42', name: 'source 42', outcome: 'unknown', count: 1, resolved: 0, moved: [] },
    ]
    const w = mount(ImportPreview, { props: { preview: preview({ sources }) } })
    const items = w.findAll('[data-sources] li')
    expect(items.map((li) => li.attributes('data-outcome'))).toEqual(['site-to-add', 'not-readable', 'unknown'])
    expect(items[0]!.text()).toBe(
      'Manganato (MangaBox): 146 manga — adds the Site Manganato; 73 addresses moved from chapmanganato.com to www.natomanga.com',
    )
    expect(items[1]!.text()).toMatch(/^Bato\.to: 12 manga — no family reads this site yet/)
    expect(items[2]!.text()).toMatch(/^source 42: 1 manga — not a source of the extension repository/)
    expect(
      mount(ImportPreview, { props: { preview: preview() } })
        .find('[data-sources]')
        .exists(),
    ).toBe(false)
  })

  it('names the Known Sites the import adds, with their families, before the owner confirms', () => {
    const sitesToAdd = [
      { key: 'asura-scans', name: 'Asura Scans', family: 'MangaThemesia', host: 'asuracomic.net', count: 3 },
      { key: 'reset-scans', name: 'Reset Scans', family: 'Madara', host: 'reset-scans.co', count: 1 },
    ]
    const w = mount(ImportPreview, { props: { preview: preview({ sitesToAdd }) } })
    expect(w.find('[data-sites-to-add]').text()).toContain('Adds 2 Sites: Asura Scans (MangaThemesia), Reset Scans (Madara).')
    expect(
      mount(ImportPreview, { props: { preview: preview() } })
        .find('[data-sites-to-add]')
        .exists(),
    ).toBe(false)
  })

  it('shows per Site what is added, present, moved and new, and why the rest is skipped', () => {
    const w = mount(ImportPreview, { props: { preview: preview() } })
    const row = w.find('tr[data-site="mangadex"]')
    expect(['add', 'present', 'progress', 'new', 'skipped'].map((c) => row.find(`[data-col="${c}"]`).text())).toEqual([
      '2',
      '1',
      '1',
      '2',
      '0',
    ])
    expect(w.find('li[data-reason="unmapped-source"]').text()).toContain('2 — a backup source not mapped to a Site')
    expect(w.find('button.primary').text()).toBe('Import 2 bookmarks')
  })

  it('maps an unknown source by the Site chosen, or by one of its URLs', async () => {
    const w = mount(ImportPreview, { props: { preview: preview() } })
    const source = w.find('li[data-source="42"]')
    expect(source.find('select').element.value).toBe('')
    expect(source.findAll('button')[0]!.attributes('disabled')).toBeDefined()
    await source.find('select').setValue('asura')
    await source.findAll('form')[0]!.trigger('submit')
    await source.find('input[type="url"]').setValue('https://asura.example/manga/x/')
    await source.findAll('form')[1]!.trigger('submit')
    expect(w.emitted('map')).toEqual([
      ['42', { site: 'asura' }],
      ['42', { url: 'https://asura.example/manga/x/' }],
    ])
  })

  it('has nothing to confirm when nothing would be written', () => {
    const w = mount(ImportPreview, {
      props: { preview: preview({ totals: { add: 0, present: 3, progress: 0, newSeries: 0, skipped: 0 } }) },
    })
    expect(w.find('button.primary').attributes('disabled')).toBeDefined()
  })
})
