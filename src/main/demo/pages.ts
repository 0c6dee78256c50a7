/**
 * The fixture site's pages: small but faithful imitations of the markup each built-in family reads
 * (docs/sites.md), so the real adapters parse them unchanged.
 */
export interface FixtureSeries {
  title: string
  /** Chapters 1..latest exist. */
  latest: number
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const newestFirst = (latest: number, count = 12) => Array.from({ length: Math.min(count, latest) }, (_, i) => latest - i)

function page(title: string, body: string, head = ''): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>${head}</head>\n<body>${body}</body></html>\n`
}

export function madaraChapterList(base: string, s: FixtureSeries): string {
  return `<ul class="main version-chap no-volumn">${newestFirst(s.latest)
    .map(
      (n) =>
        `<li class="wp-manga-chapter"><a href="${base}chapter-${n}/">Chapter ${n}</a><span class="chapter-release-date"><i>recently</i></span></li>`,
    )
    .join('\n')}</ul>`
}

export function madaraPage(base: string, s: FixtureSeries, options: { xhr?: boolean; postId?: number } = {}): string {
  const list = options.xhr
    ? `<div id="manga-chapters-holder" data-id="${options.postId ?? 1}"><div class="loading-chapters"></div></div>`
    : `<div class="listing-chapters_wrap">${madaraChapterList(base, s)}</div>`
  return page(
    `${s.title} – Fixture Scans`,
    `<div class="post-title"><h1>${esc(s.title)}</h1></div><div class="summary_image"><a href="${base}"><img class="img-responsive" src="${base}cover.png" alt="${esc(s.title)}"></a></div><div class="c-page-content">${list}</div>`,
  )
}

/** Madara's search results (`/?s=…&post_type=wp-manga`): one `c-tabs-item__content` row per Series, as the theme writes it. */
export function madaraSearchPage(origin: string, found: ReadonlyArray<{ slug: string; series: FixtureSeries }>): string {
  const rows = found
    .map(({ slug, series: s }) => {
      const base = `${origin}/madara/manga/${slug}/`
      return `<div class="row c-tabs-item__content"><div class="tab-thumb"><a href="${base}" title="${esc(s.title)}"><img class="img-responsive" data-src="${origin}/covers/${slug}.png" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="${esc(s.title)}"></a></div><div class="tab-summary"><div class="post-title"><h3 class="h4"><a href="${base}">${esc(s.title)}</a></h3></div><div class="meta-item latest-chap"><span class="font-meta">Latest chapter</span><span class="font-meta chapter"><a href="${base}chapter-${s.latest}/">Chapter ${s.latest}</a></span></div></div></div>`
    })
    .join('\n')
  const none = found.length === 0 ? '<div class="search-wrap"><h3>No matches</h3></div>' : ''
  return page('Search – Fixture Scans', `<div class="c-page-content"><div class="tab-content-wrap">${rows}${none}</div></div>`)
}

export function themesiaPage(base: string, s: FixtureSeries): string {
  const items = newestFirst(s.latest)
    .map(
      (n) =>
        `<li data-num="${n}"><div class="eph-num"><a href="${base}chapter-${n}/"><span class="chapternum">Chapter ${n}</span><span class="chapterdate">recently</span></a></div></li>`,
    )
    .join('\n')
  return page(
    `${s.title} - Fixture Themesia`,
    `<div class="thumb"><img src="${base}cover.png" alt=""></div><h1 class="entry-title">${esc(s.title)}</h1><div class="eplister" id="chapterlist"><ul>${items}</ul></div>`,
  )
}

export function webtoonsPage(base: string, titleNo: string, s: FixtureSeries): string {
  const items = newestFirst(s.latest, 10)
    .map(
      (n) =>
        `<li class="_episodeItem" data-episode-no="${n}"><a href="${base}episode-${n}/viewer?title_no=${titleNo}&amp;episode_no=${n}"><span class="subj"><span>Episode ${n}</span></span><span class="tx">#${n}</span></a></li>`,
    )
    .join('\n')
  return page(
    `${s.title} | Fixture Toons`,
    `<div class="info"><h1 class="subj">${esc(s.title)}</h1></div><div class="detail_lst"><ul id="_listUl">${items}</ul></div>`,
  )
}

export function mangaDexFeed(uuid: string, s: FixtureSeries): string {
  return JSON.stringify({
    result: 'ok',
    response: 'collection',
    data: newestFirst(s.latest).map((n) => ({
      id: `${uuid.slice(0, 24)}${String(n).padStart(12, '0')}`,
      type: 'chapter',
      attributes: { volume: null, chapter: String(n), title: null, translatedLanguage: 'en', externalUrl: null, pages: 20 },
      relationships: [{ id: uuid, type: 'manga', attributes: { title: { en: s.title } } }],
    })),
    limit: 100,
    offset: 0,
    total: s.latest,
  })
}

/** A Cloudflare-like challenge. With `clears`, its script sets the clearance cookie and reloads. */
export function challengePage(clears: boolean): string {
  const script = clears
    ? `<script>setTimeout(function () { document.cookie = 'fixture_clearance=ok; path=/; max-age=86400; SameSite=Lax'; location.reload(); }, 150);</script>`
    : `<script>/* a captcha a person would have to solve */</script>`
  return page(
    'Just a moment...',
    `<div class="main-wrapper"><h1 id="challenge-error-title">Checking your browser before accessing the site.</h1><div id="challenge-error-text">Enable JavaScript and cookies to continue</div></div>${script}`,
  )
}

export function noChaptersPage(s: FixtureSeries): string {
  return page(
    `${s.title} – Fixture Scans`,
    `<div class="post-title"><h1>${esc(s.title)}</h1></div><div class="c-page-content"><p>No chapters yet.</p></div>`,
  )
}
