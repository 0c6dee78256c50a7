/**
 * The simulated Sites' pages, built the way the fixture site builds them (src/main/demo/pages.ts) but from
 * a Series' own chapters — fractional numbers and every label family — so the real adapters and chapter
 * parser read them unchanged.
 */
import { challengePage, noChaptersPage } from '../demo/pages'
import type { PageFamily, SimChapter, SimSeries } from './catalogue'
import type { ServedEdit } from './events'

export { challengePage }

/** How many chapters a page lists, newest first (real pages list more; the newest are what matter). */
const LISTED = 10
/** Webtoons lists fewer a page; MangaDex's feed a hundred. */
const LISTED_WEBTOONS = 8
const LISTED_FEED = 100

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function document(title: string, body: string, head = ''): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>${head}</head>\n<body>${body}</body></html>\n`
}

/** The cover as the family's page shows it (sim-search.ts names it): its cover element, or `og:image` for selectors. */
function coverHtml(family: PageFamily, cover: string | undefined): { body: string; head: string } {
  if (!cover) return { body: '', head: '' }
  const img = `<img src="${esc(cover)}" alt="">`
  switch (family) {
    case 'madara':
    case 'madara-xhr':
      return { body: `<div class="summary_image"><a href="#">${img}</a></div>`, head: '' }
    case 'mangathemesia':
      return { body: `<div class="thumb">${img}</div>`, head: '' }
    case 'webtoons':
      return { body: `<div class="detail_header"><span class="thmb">${img}</span></div>`, head: '' }
    default:
      return { body: '', head: `<meta property="og:image" content="${esc(cover)}">` }
  }
}

const newestFirst = (chapters: readonly SimChapter[], count = LISTED) => chapters.slice(-count).reverse()

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
/** A release date as WordPress themes print it, to the day: "November 29, 2026" (UTC). */
export const longDate = (at: number) => {
  const d = new Date(at)
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`
}
/** Webtoons' short date: "Nov 29, 2026". */
const shortDate = (at: number) => longDate(at).replace(/^(\w{3})\w*/, '$1')
const chapterUrl = (series: SimSeries, c: SimChapter) => `${series.url.replace(/\/?$/, '/')}chapter-${String(c.number).replace('.', '-')}/`

export function madaraList(series: SimSeries, chapters: readonly SimChapter[]): string {
  const items = newestFirst(chapters)
    .map(
      (c) =>
        `<li class="wp-manga-chapter"><a href="${chapterUrl(series, c)}">${esc(c.label)}</a><span class="chapter-release-date"><i>${longDate(c.at)}</i></span></li>`,
    )
    .join('\n')
  return `<ul class="main version-chap no-volumn">${items}</ul>`
}

/** The chapter numbers a page of the family lists (a Madara XHR list: as `madara`), newest first. */
export function listedNumbers(family: PageFamily, chapters: readonly SimChapter[]): number[] {
  const count = family === 'webtoons' ? LISTED_WEBTOONS : family === 'mangadex' ? LISTED_FEED : LISTED
  return newestFirst(chapters, count).map((c) => c.number)
}

/** The Site's edits among what a page of `family` lists (none: no field). */
export function servedEdits(family: PageFamily, chapters: readonly SimChapter[]): { edited?: ServedEdit[] } {
  if (!chapters.some((c) => c.shownAs)) return {}
  const count = family === 'webtoons' ? LISTED_WEBTOONS : family === 'mangadex' ? LISTED_FEED : LISTED
  // MangaDex's feed shows no label text of its own (the adapter makes one): a relabel there shows nothing.
  const api = family === 'mangadex'
  const edited = newestFirst(chapters, count).flatMap((c) =>
    c.shownAs && !(api && c.shownAs === 'relabel') ? [{ kind: c.shownAs, number: c.number, label: api ? '' : c.label }] : [],
  )
  return edited.length ? { edited } : {}
}

/** A Series page of its Site's family, listing `chapters` (those released by now). */
export function seriesPage(family: PageFamily, series: SimSeries, chapters: readonly SimChapter[], cover?: string): string {
  const title = esc(series.title)
  const shown = coverHtml(family, cover)
  switch (family) {
    case 'madara':
      return document(
        `${series.title} – Sim Scans`,
        `<div class="post-title"><h1>${title}</h1></div>${shown.body}<div class="c-page-content"><div class="listing-chapters_wrap">${madaraList(series, chapters)}</div></div>`,
      )
    case 'madara-xhr':
      return document(
        `${series.title} – Sim Scans`,
        `<div class="post-title"><h1>${title}</h1></div>${shown.body}<div class="c-page-content"><div id="manga-chapters-holder" data-id="${series.postId}"><div class="loading-chapters"></div></div></div>`,
      )
    case 'mangathemesia': {
      const items = newestFirst(chapters)
        .map(
          (c) =>
            `<li data-num="${c.number}"><div class="eph-num"><a href="${chapterUrl(series, c)}"><span class="chapternum">${esc(c.label)}</span><span class="chapterdate">${longDate(c.at)}</span></a></div></li>`,
        )
        .join('\n')
      return document(
        `${series.title} - Sim Themesia`,
        `<h1 class="entry-title">${title}</h1>${shown.body}<div class="eplister" id="chapterlist"><ul>${items}</ul></div>`,
      )
    }
    case 'webtoons': {
      const items = newestFirst(chapters, LISTED_WEBTOONS)
        .map(
          (c) =>
            `<li class="_episodeItem" data-episode-no="${c.number}"><a href="${series.url.replace(/\/list\?.*$/, '')}/episode-${c.number}/viewer?title_no=${series.postId}&amp;episode_no=${c.number}"><span class="subj"><span>${esc(c.label)}</span></span><span class="date">${shortDate(c.at)}</span><span class="tx">#${c.number}</span></a></li>`,
        )
        .join('\n')
      return document(
        `${series.title} | Sim Toons`,
        `${shown.body}<div class="info"><h1 class="subj">${title}</h1></div><div class="detail_lst"><ul id="_listUl">${items}</ul></div>`,
      )
    }
    case 'selectors': {
      const items = newestFirst(chapters)
        .map((c) => `<li><a href="${chapterUrl(series, c)}" data-num="${c.number}">${esc(c.label)}</a></li>`)
        .join('\n')
      return document(
        `${series.title} · Sim Reader`,
        `<h1 class="series-title">${title}</h1><ul class="chapters">${items}</ul>`,
        shown.head,
      )
    }
    case 'mangadex':
      return mangaDexFeed(series, chapters)
  }
}

/** MangaDex's chapter feed for a Series: newest first, the chapter number as a string. */
export function mangaDexFeed(series: SimSeries, chapters: readonly SimChapter[]): string {
  const listed = newestFirst(chapters, LISTED_FEED)
  return JSON.stringify({
    result: 'ok',
    response: 'collection',
    data: listed.map((c) => ({
      id: `${series.uuid.slice(0, 24)}${String(Math.round(c.number * 10)).padStart(12, '0')}`,
      type: 'chapter',
      attributes: {
        volume: series.labelStyle === 'vol-ch' ? String(Math.floor(c.number / 10) + 1) : null,
        chapter: String(c.number),
        title: series.labelStyle === 'ch-title' ? 'A Title' : null,
        translatedLanguage: 'en',
        externalUrl: null,
        pages: 20,
        publishAt: new Date(c.at).toISOString(),
        readableAt: new Date(c.at).toISOString(),
      },
      relationships: [{ id: series.uuid, type: 'manga', attributes: { title: { en: series.title } } }],
    })),
    limit: 100,
    offset: 0,
    total: chapters.length,
  })
}

/** A real page of the family with no chapter on it: what a broken adapter, or a Site mid-rebuild, looks like. */
export function pageWithoutChapters(family: PageFamily, series: SimSeries): string {
  if (family === 'mangadex') return JSON.stringify({ result: 'ok', response: 'collection', data: [], limit: 100, offset: 0, total: 0 })
  return noChaptersPage({ title: series.title, latest: 0 })
}
