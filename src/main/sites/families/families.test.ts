/**
 * The families as sites.json names them, the adapters their recipes make again (in the page reader's worker),
 * and the generic selector adapter's choices of number, link and label.
 */
import { COMICIVIEWER_ID_PATTERN } from './comiciviewer'
import { KEYOAPP_ID_PATTERN } from './keyoapp'
import { MADTHEME_ID_PATTERN } from './madtheme'
import { MANGABOX_ID_PATTERN } from './mangabox'
import { MANGACATALOG_ID_PATTERN } from './mangacatalog'
import { PIZZAREADER_ID_PATTERN } from './pizzareader'
import { GIGAVIEWER_ID_PATTERN } from './gigaviewer'
import { WPCOMICS_ID_PATTERN } from './wpcomics'
import { GROUPLE_ID_PATTERN } from './grouple'
import { FOOLSLIDE_ID_PATTERN } from './foolslide'
import { MMRCMS_ID_PATTERN } from './mmrcms'
import { MANGAREADER_ID_PATTERN } from './mangareader'
import { GALLERYADULTS_ID_PATTERN } from './galleryadults'
import { NAVERCOMIC_ID_PATTERN } from './navercomic'
import { XCOMIC_ID_PATTERN } from './xcomic'
import { LIBGROUP_ID_PATTERN } from './libgroup'
import { GODA_ID_PATTERN } from './goda'
import { BILIMANGA_ID_PATTERN } from './bilimanga'
import { KOMIIC_ID_PATTERN } from './komiic'
import { HENTAIHAND_ID_PATTERN } from './hentaihand'
import { GALLERYPAGE_ID_PATTERN } from './gallerypage'
import { KAGANE_ID_PATTERN } from './kagane'
import { IKEN_ID_PATTERN } from './iken'
import { MANGATOON_ID_PATTERN } from './mangatoon'
import { PAGEDPOST_ID_PATTERN } from './pagedpost'
import { MANGAHUB_ID_PATTERN } from './mangahub'
import { ZEISTMANGA_ID_PATTERN } from './zeistmanga'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Adapter, AdapterStep, Page, ParsedSeries } from '../site'
import { adapterFromRecipe, FAMILIES, FAMILY_KEYS, type AdapterRecipe } from '.'
import { MADARA_ID_PATTERN } from './madara'
import { MANGADEX_ID_PATTERN } from './mangadex'
import { MANGATHEMESIA_ID_PATTERN } from './mangathemesia'
import { selectorAdapter, type Selectors } from './selectors'
import { WEBTOONS_ID_PATTERN } from './webtoons'

const stored = (name: string) => readFileSync(join(__dirname, '..', 'testdata', name), 'utf8')
const page = (url: string, body: string, status = 200): Page => ({ url, status, contentType: 'text/html', body })

function parsed(step: AdapterStep): ParsedSeries {
  if (step.kind !== 'parsed') throw new Error(`expected parsed, got ${step.kind}`)
  return step.result
}

const MANGADEX_TITLE = 'https://mangadex.org/title/a1c7c817-4e59-43b7-9365-09675a149a6f/one-piece'

describe('the built-in families', () => {
  it('each has its own series_id rule; only MangaDex reads languages', () => {
    expect(FAMILY_KEYS.map((k) => [k, FAMILIES[k].idPattern, FAMILIES[k].readsLanguages])).toEqual([
      ['madara', MADARA_ID_PATTERN, false],
      ['mangathemesia', MANGATHEMESIA_ID_PATTERN, false],
      ['webtoons', WEBTOONS_ID_PATTERN, false],
      ['mangadex', MANGADEX_ID_PATTERN, true],
      ['zeistmanga', ZEISTMANGA_ID_PATTERN, false],
      ['keyoapp', KEYOAPP_ID_PATTERN, false],
      ['comiciviewer', COMICIVIEWER_ID_PATTERN, false],
      ['mangabox', MANGABOX_ID_PATTERN, false],
      ['madtheme', MADTHEME_ID_PATTERN, false],
      ['mangacatalog', MANGACATALOG_ID_PATTERN, false],
      ['pizzareader', PIZZAREADER_ID_PATTERN, false],
      ['gigaviewer', GIGAVIEWER_ID_PATTERN, false],
      ['wpcomics', WPCOMICS_ID_PATTERN, false],
      ['grouple', GROUPLE_ID_PATTERN, false],
      ['foolslide', FOOLSLIDE_ID_PATTERN, false],
      ['mmrcms', MMRCMS_ID_PATTERN, false],
      ['mangareader', MANGAREADER_ID_PATTERN, false],
      ['galleryadults', GALLERYADULTS_ID_PATTERN, false],
      ['navercomic', NAVERCOMIC_ID_PATTERN, false],
      ['xcomic', XCOMIC_ID_PATTERN, false],
      ['libgroup', LIBGROUP_ID_PATTERN, false],
      ['goda', GODA_ID_PATTERN, false],
      ['bilimanga', BILIMANGA_ID_PATTERN, false],
      ['komiic', KOMIIC_ID_PATTERN, false],
      ['hentaihand', HENTAIHAND_ID_PATTERN, false],
      ['gallerypage', GALLERYPAGE_ID_PATTERN, false],
      ['kagane', KAGANE_ID_PATTERN, false],
      ['mangatoon', MANGATOON_ID_PATTERN, false],
      ['pagedpost', PAGEDPOST_ID_PATTERN, false],
      ['mangahub', MANGAHUB_ID_PATTERN, false],
      ['iken', IKEN_ID_PATTERN, false],
    ])
  })

  it("each family's adapter names its family in its recipe", () => {
    expect(FAMILY_KEYS.map((k) => FAMILIES[k].adapter().recipe)).toEqual([
      { family: 'madara' },
      { family: 'mangathemesia' },
      { family: 'webtoons' },
      { family: 'mangadex', apiBase: 'https://api.mangadex.org' },
      { family: 'zeistmanga' },
      { family: 'keyoapp' },
      { family: 'comiciviewer' },
      { family: 'mangabox' },
      { family: 'madtheme' },
      { family: 'mangacatalog' },
      { family: 'pizzareader' },
      { family: 'gigaviewer' },
      { family: 'wpcomics' },
      { family: 'grouple' },
      { family: 'foolslide' },
      { family: 'mmrcms' },
      { family: 'mangareader' },
      { family: 'galleryadults' },
      { family: 'navercomic' },
      { family: 'xcomic' },
      { family: 'libgroup' },
      { family: 'goda' },
      { family: 'bilimanga' },
      { family: 'komiic' },
      { family: 'hentaihand' },
      { family: 'gallerypage' },
      { family: 'kagane' },
      { family: 'mangatoon' },
      { family: 'pagedpost' },
      { family: 'mangahub' },
      { family: 'iken' },
    ])
  })

  it("MangaDex asks the real API, in English unless the Site's entry names languages", () => {
    const english = FAMILIES.mangadex.adapter().request(new URL(MANGADEX_TITLE))
    expect(english.url).toMatch(
      /^https:\/\/api\.mangadex\.org\/manga\/a1c7c817-4e59-43b7-9365-09675a149a6f\/feed\?translatedLanguage%5B%5D=en&/,
    )
    const chosen = FAMILIES.mangadex.adapter({ languages: ['pt-br', 'es'] })
    expect(chosen.recipe).toEqual({ family: 'mangadex', apiBase: 'https://api.mangadex.org', languages: ['pt-br', 'es'] })
    expect(new URL(chosen.request(new URL(MANGADEX_TITLE)).url).searchParams.getAll('translatedLanguage[]')).toEqual(['pt-br', 'es'])
  })
})

describe('the adapter a recipe describes reads as the one it came from', () => {
  const cases: Array<[name: string, adapter: Adapter, file: string, url: string]> = [
    ['Madara', FAMILIES.madara.adapter(), 'madara-inline.html', 'https://scans.example/manga/the-tower-climber/'],
    ['MangaThemesia', FAMILIES.mangathemesia.adapter(), 'mangathemesia.html', 'https://x.example/manga/y/'],
    ['Webtoons', FAMILIES.webtoons.adapter(), 'webtoons-list.html', 'https://www.webtoons.com/en/fantasy/tower/list?title_no=95'],
    ['MangaDex in English', FAMILIES.mangadex.adapter(), 'mangadex-languages.json', MANGADEX_TITLE],
    ['MangaDex in other languages', FAMILIES.mangadex.adapter({ languages: ['pt-br'] }), 'mangadex-languages.json', MANGADEX_TITLE],
    ['WPComics', FAMILIES.wpcomics.adapter(), 'wpcomics.html', 'https://truyen.example/truyen-tranh/hoa-sen-do'],
    ['Grouple', FAMILIES.grouple.adapter(), 'grouple.html', 'https://read.example/severnyi_veter'],
    ['FoolSlide', FAMILIES.foolslide.adapter(), 'foolslide.html', 'https://fool.example/series/iron-lantern/'],
    ['MMRCMS', FAMILIES.mmrcms.adapter(), 'mmrcms.html', 'https://cms.example/manga/le-phare-noir'],
    ['MangaReader', FAMILIES.mangareader.adapter(), 'mangareader.html', 'https://raw.example/tsuki-no-niwa-raw-501'],
    ['GigaViewer', FAMILIES.gigaviewer.adapter(), 'gigaviewer-episodes.json', 'https://giga.example/episode/3269754496647404999'],
    ['GalleryAdults', FAMILIES.galleryadults.adapter(), 'galleryadults.html', 'https://gallery.example/gallery/1234567/'],
    [
      'selectors',
      selectorAdapter({ chapter: '#episodes .episode-row a', title: 'h1', number: 'text' }),
      'generic-list.html',
      'https://paper.example/comic/moth-garden',
    ],
  ]
  it.each(cases)('%s', (_name, adapter, file, url) => {
    const again = adapterFromRecipe(adapter.recipe!)
    expect(again.recipe).toEqual(adapter.recipe)
    const seriesUrl = new URL(url)
    expect(again.request(seriesUrl)).toEqual(adapter.request(seriesUrl))
    const result = parsed(again.read(page(url, stored(file)), seriesUrl))
    expect(result.chapters.length).toBeGreaterThan(0)
    expect(result).toEqual(parsed(adapter.read(page(url, stored(file)), seriesUrl)))
  })

  it('a MangaDex recipe with its own API base asks there', () => {
    const recipe: AdapterRecipe = { family: 'mangadex', apiBase: 'http://127.0.0.1:9/api' }
    expect(adapterFromRecipe(recipe).request(new URL(MANGADEX_TITLE)).url).toMatch(/^http:\/\/127\.0\.0\.1:9\/api\/manga\//)
  })
})

describe('selectors from sites.json', () => {
  const url = 'https://small.example/s/saga'
  const read = (selectors: Selectors, html: string) => parsed(selectorAdapter(selectors).read(page(url, html), new URL(url)))

  it('asks for the Series page itself, and keeps a copy of its selectors as its recipe', () => {
    const selectors: Selectors = { chapter: 'li a', number: 'text' }
    const adapter = selectorAdapter(selectors)
    selectors.chapter = 'changed'
    expect(adapter.recipe).toEqual({ selectors: { chapter: 'li a', number: 'text' } })
    expect(adapter.request(new URL(url))).toEqual({ url, method: 'GET' })
  })

  it('a chapter element that is a link links itself', () => {
    expect(
      read({ chapter: 'a.ch', number: 'text' }, '<a class="ch" href="/c/3">Chapter 3 <a href="/inner">x</a></a>').chapters[0]?.url,
    ).toBe('https://small.example/c/3')
  })

  it('a chapter row links the first link inside it', () => {
    const html = '<ul><li class="ch"><span>Chapter 4</span> <a href="/c/4">read</a> <a href="/c/4/comments">comments</a></li></ul>'
    expect(read({ chapter: 'li.ch', number: 'text' }, html).chapters).toEqual([
      { number: 4, label: 'Chapter 4 read comments', url: 'https://small.example/c/4' },
    ])
  })

  it('a chapter element inside a link links that link', () => {
    const html = '<a href="/c/5"><div class="ch">Chapter 5</div></a>'
    expect(read({ chapter: 'div.ch', number: 'text' }, html).chapters).toEqual([
      { number: 5, label: 'Chapter 5', url: 'https://small.example/c/5' },
    ])
  })

  it('a chapter with a number but no text of its own is labelled by its number', () => {
    const html = '<ul><li><a href="/c/6" data-n="6"><img src="cover.png"></a></li></ul>'
    expect(read({ chapter: 'li a', number: 'attr:data-n' }, html).chapters).toEqual([
      { number: 6, label: 'Chapter 6', url: 'https://small.example/c/6' },
    ])
  })

  it('number attr:NAME never falls back to the text: a chapter without the attribute is no chapter', () => {
    const html = '<ul><li><a href="/c/7">Chapter 7</a></li><li><a href="/c/8" data-n="8">Chapter 8</a></li></ul>'
    expect(read({ chapter: 'li a', number: 'attr:data-n' }, html).chapters.map((c) => c.number)).toEqual([8])
  })

  it('the title is the first h1 unless the Site names its own', () => {
    const html = '<h1>Saga</h1><h2 class="name">Small Saga</h2><a class="ch" href="/c/1">Chapter 1</a>'
    expect(read({ chapter: 'a.ch', number: 'text' }, html).title).toBe('Saga')
    expect(read({ chapter: 'a.ch', number: 'text', title: 'h2.name' }, html).title).toBe('Small Saga')
  })
})
