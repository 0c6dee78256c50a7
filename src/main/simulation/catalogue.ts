/**
 * The simulated world: Sites of each family and their Series, each with a release model — cadence phases
 * that can change (a schedule change, a hiatus, a return) — and every chapter's release time, decided up
 * front from the seed. What a Site shows at a moment is every chapter released by then. World time is the
 * simulation's monotonic time: a wall-clock step on the app's machine moves no release.
 */
import { FAMILIES } from '../sites/families'
import { mangaDexAdapter } from '../sites/families/mangadex'
import { selectorAdapter } from '../sites/families/selectors'
import { templateSearch } from '../sites/search'
import { mangaDexSearch } from '../sites/families/search'
import { DEFAULT_PACE, seriesRules, type Cadence as PaceCadence, type Pace, type Site } from '../sites/site'
import type { Random } from './random'

export const HOUR = 3_600_000
export const DAY = 24 * HOUR

/** How a Site builds its pages: one per built-in family, Madara's XHR-list variant, and sites.json selectors. */
export type PageFamily = 'madara' | 'madara-xhr' | 'mangathemesia' | 'webtoons' | 'mangadex' | 'selectors'

/** The order Sites are made in: the first four cover an XHR list, data-num, a JSON API and a browser Site. */
const SITE_PLAN: ReadonlyArray<{ family: PageFamily; browser: boolean; pace: Partial<Pace>; label: string }> = [
  { family: 'madara-xhr', browser: false, pace: {}, label: 'Madara, XHR list' },
  // A small Site that asks for a minute between requests: a rest holds 60 checks, so a flood passes its fair share.
  { family: 'mangathemesia', browser: false, pace: { minGapMs: 60_000 }, label: 'MangaThemesia, a minute apart' },
  { family: 'mangadex', browser: false, pace: { restMs: 2 * HOUR }, label: 'MangaDex API' },
  { family: 'selectors', browser: true, pace: {}, label: 'selectors, behind a browser' },
  { family: 'webtoons', browser: false, pace: { restMs: HOUR / 2 }, label: 'Webtoons' },
  { family: 'madara', browser: false, pace: {}, label: 'Madara' },
]

export interface SimSite {
  readonly site: Site
  readonly family: PageFamily
  readonly host: string
  /** MangaDex-like Sites answer their feed on a second host. */
  readonly apiHost?: string
}

/**
 * How a Series writes its chapter labels: the shapes the chapter parser reads (docs/design.md#chapter-numbers,
 * docs/adr/0025): `Chapter 12.5`, `Ch. 12 - Title`, `Episode 12`, `Vol.3 Ch.12`, `#12`.
 */
export type LabelStyle = 'chapter' | 'ch-title' | 'episode' | 'vol-ch' | 'hash'
export const LABEL_STYLES: readonly LabelStyle[] = ['chapter', 'ch-title', 'episode', 'vol-ch', 'hash']

export type Cadence = 'weekly' | 'every-few-days' | 'daily' | 'bursty' | 'irregular' | 'hiatus' | 'finished'

/** One stretch of a Series' release model, from `from` (monotonic ms) until the next phase. */
export interface SchedulePhase {
  from: number
  cadence: Cadence
  /** weekly: the weekday (0 = Sunday, UTC); every-few-days: days between; others: unused. */
  every?: number
  /** The hour of day (UTC) releases come out, for the regular cadences. */
  hour?: number
}

export interface SimChapter {
  number: number
  label: string
  /** Release time, monotonic ms; at or before the start for the back catalogue. */
  at: number
  /** Taken down by the Site from `from` and uploaded again at `to` (monotonic ms): absent from its pages meanwhile. */
  withdrawn?: { from: number; to: number }
  /**
   * What the Site does to this chapter from `at` on (siteEdits): shows it under a new label (the same number), under
   * a corrected lower `number` (re-uploaded), or lists an extra chapter `number` just below it (inserted).
   */
  edit?: SiteEdit
  /** Set on what shownBy lists for an edit in effect: which edit made this entry. */
  shownAs?: SiteEditKind
}

export type SiteEditKind = 'relabel' | 'renumber' | 'extra'
export interface SiteEdit {
  kind: SiteEditKind
  at: number
  /** The label shown from `at` (relabel), the corrected number (renumber) or the extra chapter's (extra). */
  label: string
  number: number
}

export interface SimSeries {
  /** `${site}/${seriesId}`. */
  readonly key: string
  readonly site: string
  readonly seriesId: string
  readonly title: string
  readonly url: string
  /** The slug in the Series' paths. */
  readonly slug: string
  /** Madara's post id (the admin-ajax fallback), Webtoons' title_no, MangaDex's uuid. */
  readonly postId: number
  readonly uuid: string
  readonly labelStyle: LabelStyle
  readonly schedule: readonly SchedulePhase[]
  /** Every chapter in release order (numbers increase), back catalogue first; what the Site shows is shownBy's. */
  readonly chapters: readonly SimChapter[]
  /** Held by Readers when the simulation starts (else a Reader may bookmark it by URL later). */
  readonly initiallyHeld: boolean
  readonly initialReaders: number
  /** The owner had shelved it (Finished) before the start. */
  readonly initiallyFinished: boolean
  /** One of the many a flood bookmarks at once (FLOOD): left alone by every other bookmark. */
  readonly flood?: boolean
}

export interface WorldOptions {
  sites: number
  series: number
  start: number
  end: number
  /** Every Site's pace cadence; the world (Series, releases) is the same whichever. */
  cadence?: PaceCadence
  /** Pace settings every Site takes over its own (a scenario's: a rest that holds few checks). */
  pace?: Partial<Pace>
  /** The share of Series the household holds at the start (default 0.85). */
  held?: number
  /** How many Series a flood bookmarks (floodSeries; default none). */
  flood?: number
}

export interface World {
  readonly sites: readonly SimSite[]
  readonly series: readonly SimSeries[]
  readonly start: number
  readonly end: number
  siteByHost(host: string): SimSite | undefined
  seriesByKey(key: string): SimSeries | undefined
  /** The Series of a Site by the id its pages are addressed with (slug, uuid, title_no or Madara post id). */
  findSeries(site: string, by: 'slug' | 'uuid' | 'postId', value: string): SimSeries | undefined
}

/** The chapters a Series shows at `at` (monotonic): those released by then, in release order. */
export function releasedBy(series: SimSeries, at: number): readonly SimChapter[] {
  const chapters = series.chapters
  let lo = 0
  let hi = chapters.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (chapters[mid]!.at <= at) lo = mid + 1
    else hi = mid
  }
  return chapters.slice(0, lo)
}

/**
 * The chapters a Series' pages list at `at`: those released by then, less any the Site has withdrawn for now, with
 * the Site's edits made by then (a label, a corrected number, an extra chapter), in number order.
 */
export function shownBy(series: SimSeries, at: number): readonly SimChapter[] {
  const released = releasedBy(series, at)
  const shown = released.some((c) => c.withdrawn)
    ? released.filter((c) => !c.withdrawn || at < c.withdrawn.from || at >= c.withdrawn.to)
    : released
  return shown.some((c) => c.edit && c.edit.at <= at) ? edited(shown, at) : shown
}

/** The chapters with the edits made by `at` applied, in number order (an edit's chapter a new object). */
function edited(shown: readonly SimChapter[], at: number): SimChapter[] {
  const out: SimChapter[] = []
  for (const c of shown) {
    const e = c.edit && c.edit.at <= at ? c.edit : undefined
    if (!e) out.push(c)
    else if (e.kind === 'relabel') out.push({ ...c, label: e.label, shownAs: e.kind })
    else if (e.kind === 'renumber') out.push({ number: e.number, label: e.label, at: c.at, shownAs: e.kind })
    else out.push(c, { number: e.number, label: e.label, at: e.at, shownAs: e.kind })
  }
  return out.sort((a, b) => a.number - b.number)
}

/** Per Series per day: the chance its Site edits a chapter it shows (docs/adr/0180). */
const EDITS_PER_SERIES_PER_DAY = 0.03
const EDIT_KINDS: readonly SiteEditKind[] = ['relabel', 'renumber', 'extra']

/**
 * Sites that relabel a chapter ("Chapter 12" → "Ch. 12 – The Return"), re-upload their newest under a corrected
 * lower number (12 → 11.5) or insert an extra chapter below their newest (11.5 between 11 and 12), from a stream of
 * their own, on a Series held from the start that no withdrawal touches, 6 h in or later; the newest out 12 h or more. A run long enough makes each kind at
 * least once, on the first Series that can take it (docs/adr/0180).
 */
function siteEdits(rng: Random, series: readonly SimSeries[], unlabelled: ReadonlySet<string>, start: number, end: number): void {
  if (end - start < DAY) return
  const made = new Set<SiteEditKind>()
  const chance = Math.min(1, (EDITS_PER_SERIES_PER_DAY * (end - start)) / DAY)
  for (const s of series) {
    // A Series held from the start, edited once the app has read it: the edit meets a list stored before it.
    if (!s.initiallyHeld || s.initiallyFinished || s.chapters.some((c) => c.withdrawn)) continue
    // An API that shows no label text of its own (MangaDex) shows no relabel.
    const kinds = unlabelled.has(s.site) ? EDIT_KINDS.filter((k) => k !== 'relabel') : EDIT_KINDS
    const due = kinds.find((k) => !made.has(k))
    const kind = rng.pick(kinds)
    const at = Math.round(rng.between(start + 6 * HOUR, start + Math.min(end - start, 2 * DAY)))
    if (!rng.chance(chance) && !due) continue
    if (editAt(s, due ?? kind, at)) made.add(due ?? kind)
  }
}

/** One edit of a Series' newest chapter at `at` (null when it cannot take it: too new, or an end chapter). */
function editAt(s: SimSeries, kind: SiteEditKind, at: number): SiteEdit | null {
  const released = releasedBy(s, at)
  const newest = released.at(-1) as SimChapter | undefined
  const prev = released.at(-2)
  if (!newest || newest.at > at - 12 * HOUR || newest.label.endsWith('[END]') || (kind !== 'relabel' && !prev)) return null
  const lower = prev ? (prev.number + newest.number) / 2 : newest.number
  const edit: SiteEdit =
    kind === 'relabel'
      ? { kind, at, number: newest.number, label: `Ch. ${newest.number} – The Return` }
      : { kind, at, number: lower, label: chapterLabel(s.labelStyle, lower, s.slug) }
  newest.edit = edit
  return edit
}

/** Per Series per day: the chance its Site withdraws its newest chapter for a while (a bad scan, a takedown). */
const WITHDRAWALS_PER_SERIES_PER_DAY = 0.04

/**
 * Sites that take their newest chapter down and upload it again hours later, from a stream of their own (the
 * releases stay as they were): only a chapter out for 12 h or more, gone 3–18 h.
 */
function withdrawChapters(rng: Random, series: readonly SimSeries[], start: number, end: number): void {
  for (const s of series) {
    if (!rng.chance(Math.min(1, (WITHDRAWALS_PER_SERIES_PER_DAY * (end - start)) / DAY))) continue
    const from = Math.round(rng.between(start, end))
    const newest = releasedBy(s, from).at(-1)
    const gone = Math.round(rng.between(3 * HOUR, 18 * HOUR))
    if (newest && newest.at <= from - 12 * HOUR) (newest as SimChapter).withdrawn = { from, to: from + gone }
  }
}

/** Builds the Sites, the Series and every release of the run from one random stream. */
export function buildWorld(rng: Random, options: WorldOptions): World {
  const sites = Array.from({ length: options.sites }, (_, i) => makeSite(i, options.cadence ?? 'fixed', options.pace))
  const siteWeights = sites.map((s, i) => [s, i < 3 ? 3 - i * 0.5 : 1] as const)
  const usedSlugs = new Set<string>()
  const series: SimSeries[] = []
  for (let i = 0; i < options.series; i++) {
    // Round-robin first, so every Site has Series even in a small run; then weighted (some Sites are bigger).
    const sim = i < sites.length ? sites[i]! : rng.weighted(siteWeights)
    series.push(makeSeries(rng, sim, i, usedSlugs, options))
  }
  withdrawChapters(rng.fork('withdrawals'), series, options.start, options.end)
  const unlabelled = new Set(sites.filter((s) => s.family === 'mangadex').map((s) => s.site.key))
  siteEdits(rng.fork('edits'), series, unlabelled, options.start, options.end)
  series.push(...floodSeries(rng.fork('flood'), sites, series.length, usedSlugs, options))
  const byHost = new Map<string, SimSite>()
  for (const s of sites) {
    byHost.set(s.host, s)
    if (s.apiHost) byHost.set(s.apiHost, s)
  }
  const byKey = new Map(series.map((s) => [s.key, s]))
  const index = new Map<string, SimSeries>()
  for (const s of series) {
    index.set(`${s.site}|slug|${s.slug}`, s)
    index.set(`${s.site}|uuid|${s.uuid}`, s)
    index.set(`${s.site}|postId|${s.postId}`, s)
  }
  return {
    sites,
    series,
    start: options.start,
    end: options.end,
    siteByHost: (host) => byHost.get(host.toLowerCase()),
    seriesByKey: (key) => byKey.get(key),
    findSeries: (site, by, value) => index.get(`${site}|${by}|${value}`),
  }
}

/** The Site a flood lands on: the one whose pace holds fewest checks in a rest (the first such). */
export function floodSite(sites: readonly SimSite[]): SimSite {
  const capacity = (s: SimSite) => s.site.pace.restMs / s.site.pace.minGapMs
  return [...sites].sort((a, b) => capacity(a) - capacity(b))[0]!
}

/**
 * The Series a flood bookmarks (one Reader importing a whole list): `options.flood` of them, none held at the start,
 * on the Site whose rest holds fewest checks, from a stream of their own (the run's other Series stay as they were).
 */
function floodSeries(rng: Random, sites: readonly SimSite[], first: number, used: Set<string>, options: WorldOptions): SimSeries[] {
  if (!options.flood || sites.length === 0) return []
  const site = floodSite(sites)
  return Array.from({ length: options.flood }, (_, i) => ({
    ...makeSeries(rng, site, first + i, used, { ...options, held: 0 }),
    flood: true,
  }))
}

function makeSite(index: number, cadence: PaceCadence, over: Partial<Pace> = {}): SimSite {
  const plan = SITE_PLAN[index % SITE_PLAN.length]!
  const n = index + 1
  const key = `sim${n}-${plan.family}`
  const host = `s${n}.sim.test`
  const apiHost = plan.family === 'mangadex' ? `api.s${n}.sim.test` : undefined
  const pace: Pace = { ...DEFAULT_PACE, ...plan.pace, ...over, cadence }
  const base = {
    key,
    name: `Sim Scans ${n} (${plan.label})`,
    hosts: apiHost ? [host, apiHost] : [host],
    fetcher: plan.browser ? ('browser' as const) : ('http' as const),
    fallback: 'none' as const,
    pace,
    origin: 'built-in' as const,
    // Half its Series' covers are on an image host of its own (sim-search.ts).
    imageHosts: [`img.${host}`],
  }
  let site: Site
  switch (plan.family) {
    case 'madara':
    case 'madara-xhr':
      site = { ...base, adapter: FAMILIES.madara.adapter(), ...seriesRules(FAMILIES.madara.idPattern) }
      break
    case 'mangathemesia':
      site = { ...base, adapter: FAMILIES.mangathemesia.adapter(), ...seriesRules(FAMILIES.mangathemesia.idPattern) }
      break
    case 'webtoons':
      site = { ...base, adapter: FAMILIES.webtoons.adapter(), ...seriesRules(FAMILIES.webtoons.idPattern) }
      break
    case 'mangadex':
      site = {
        ...base,
        // Its search as the built-in MangaDex has it (families/index.ts), on the simulated API host.
        adapter: { ...mangaDexAdapter({ apiBase: `https://${apiHost}` }), search: mangaDexSearch(`https://${apiHost}`, ['en']) },
        ...seriesRules(FAMILIES.mangadex.idPattern),
      }
      break
    case 'selectors':
      site = {
        ...base,
        // As a sites.json entry would give it: every other selectors Site reads the number from an attribute.
        adapter: {
          ...selectorAdapter({ chapter: 'ul.chapters li a', title: 'h1.series-title', number: index % 2 ? 'attr:data-num' : 'text' }),
          // As a sites.json `search` template gives it (sim-search.ts answers it).
          search: templateSearch(`https://${host}/search?q={query}`),
        },
        ...seriesRules(/^\/series\/([^/?#]+)/),
      }
      break
  }
  return { site, family: plan.family, host, apiHost }
}

const WORDS = [
  'ember',
  'moonlit',
  'garden',
  'knight',
  'silver',
  'tide',
  'hollow',
  'crown',
  'paper',
  'lantern',
  'winter',
  'fox',
  'azure',
  'sword',
  'quiet',
  'harbor',
  'spiral',
  'bloom',
  'iron',
  'saint',
  'velvet',
  'comet',
  'willow',
  'raven',
  'glass',
  'meadow',
  'thunder',
  'cinder',
  'hidden',
  'orchard',
  'starlit',
  'wanderer',
  'alchemist',
  'tower',
]

function makeSeries(rng: Random, sim: SimSite, index: number, used: Set<string>, options: WorldOptions): SimSeries {
  let slug: string
  do {
    slug = [rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS)].join('-')
  } while (used.has(slug))
  used.add(slug)
  const title = slug
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ')
  const postId = 1000 + index
  const uuid = `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-a${rng.hex(3)}-${rng.hex(12)}`
  const origin = `https://${sim.host}`
  const url =
    sim.family === 'webtoons'
      ? `${origin}/en/fantasy/${slug}/list?title_no=${postId}`
      : sim.family === 'mangadex'
        ? `${origin}/title/${uuid}/${slug}`
        : sim.family === 'selectors'
          ? `${origin}/series/${slug}/`
          : `${origin}/manga/${slug}/`
  const seriesId = sim.site.seriesIdOf(new URL(url))
  if (!seriesId) throw new Error(`simulation: ${sim.site.key} cannot read a series_id from ${url}`)
  // Webtoons numbers episodes 1, 2, 3…: no fractional chapters and its own label.
  const integerOnly = sim.family === 'webtoons'
  const labelStyle: LabelStyle = integerOnly ? 'episode' : rng.pick(LABEL_STYLES)
  const schedule = makeSchedule(rng, options)
  const chapters = makeChapters(rng, schedule, options, integerOnly, labelStyle, slug)
  const finishedWork = schedule[schedule.length - 1]!.cadence === 'finished'
  const initiallyHeld = rng.chance(options.held ?? 0.85)
  return {
    key: `${sim.site.key}/${seriesId}`,
    site: sim.site.key,
    seriesId,
    title,
    url,
    slug,
    postId,
    uuid,
    labelStyle,
    schedule,
    chapters,
    initiallyHeld,
    initialReaders: rng.weighted([
      [1, 75],
      [2, 20],
      [3, 5],
    ]),
    initiallyFinished: initiallyHeld && finishedWork && rng.chance(0.5),
  }
}

function makeSchedule(rng: Random, options: WorldOptions): SchedulePhase[] {
  const first = rng.weighted<Cadence>([
    ['weekly', 40],
    ['every-few-days', 15],
    ['daily', 8],
    ['bursty', 8],
    ['irregular', 14],
    ['hiatus', 8],
    ['finished', 7],
  ])
  const phases: SchedulePhase[] = [phase(rng, options.start - 400 * DAY, first)]
  const span = options.end - options.start
  // Some Series change schedule during the run: a new weekday, a break, a return from hiatus.
  if (first !== 'finished' && rng.chance(first === 'hiatus' ? 0.4 : 0.15)) {
    const at = options.start + rng.between(0.1, 0.9) * span
    const next =
      first === 'hiatus'
        ? 'weekly'
        : rng.weighted<Cadence>([
            ['weekly', 3],
            ['hiatus', 2],
            ['every-few-days', 1],
            ['irregular', 1],
          ])
    phases.push(phase(rng, at, next))
  }
  return phases
}

function phase(rng: Random, from: number, cadence: Cadence): SchedulePhase {
  const hour = rng.int(0, 23)
  if (cadence === 'weekly') return { from, cadence, every: rng.int(0, 6), hour }
  if (cadence === 'every-few-days') return { from, cadence, every: rng.int(2, 5), hour }
  if (cadence === 'daily') return { from, cadence, hour }
  return { from, cadence }
}

/** Release times of one phase in [from, to): each entry is one release moment and how many chapters it brings. */
function releaseMoments(rng: Random, p: SchedulePhase, from: number, to: number): Array<{ at: number; count: number }> {
  const out: Array<{ at: number; count: number }> = []
  const jitter = (spread: number) => rng.between(-spread, spread)
  switch (p.cadence) {
    case 'weekly': {
      // The first p.every weekday at p.hour on or after `from` (UTC), then every 7 days.
      const day0 = Math.floor(from / DAY) * DAY
      const weekday = new Date(day0).getUTCDay()
      let t = day0 + ((p.every! - weekday + 7) % 7) * DAY + p.hour! * HOUR
      if (t < from) t += 7 * DAY
      for (; t < to; t += 7 * DAY) if (!rng.chance(0.08)) out.push({ at: t + jitter(20 * 60_000), count: 1 })
      break
    }
    case 'every-few-days':
      for (let t = Math.floor(from / DAY) * DAY + p.hour! * HOUR + rng.int(0, p.every! - 1) * DAY; t < to; t += p.every! * DAY)
        if (t >= from) out.push({ at: t + jitter(2 * HOUR), count: 1 })
      break
    case 'daily':
      for (let t = Math.floor(from / DAY) * DAY + p.hour! * HOUR; t < to; t += DAY)
        if (t >= from && !rng.chance(0.1)) out.push({ at: t + jitter(30 * 60_000), count: 1 })
      break
    case 'bursty':
      for (let t = from + rng.between(0, 20) * DAY; t < to; t += rng.between(14, 35) * DAY) out.push({ at: t, count: rng.int(3, 6) })
      break
    case 'irregular': {
      const mean = rng.between(2, 10) * DAY
      for (let t = from + rng.exponential(mean); t < to; t += rng.exponential(mean)) out.push({ at: t, count: 1 })
      break
    }
    case 'hiatus':
    case 'finished':
      break
  }
  return out.filter((m) => m.at >= from && m.at < to)
}

function makeChapters(
  rng: Random,
  schedule: readonly SchedulePhase[],
  options: WorldOptions,
  integerOnly: boolean,
  style: LabelStyle,
  slug: string,
): SimChapter[] {
  // The back catalogue: 3..180 chapters before the start, the newest within the last couple of weeks.
  const backCount = rng.int(3, 180)
  let last = 0
  const chapters: SimChapter[] = []
  const push = (at: number) => {
    // Now and then a special between two chapters: 12.5 after 12.
    last = !integerOnly && Number.isInteger(last) && last > 0 && rng.chance(0.08) ? last + 0.5 : Math.floor(last) + 1
    chapters.push({ number: last, label: '', at: Math.round(at) })
  }
  const newest = options.start - rng.between(0.5, 20) * DAY
  const times: number[] = []
  for (let i = backCount - 1; i >= 0; i--) times.push(newest - i * 7 * DAY)
  for (const [i, p] of schedule.entries()) {
    const to = Math.min(schedule[i + 1]?.from ?? options.end, options.end)
    for (const moment of releaseMoments(rng, p, Math.max(p.from, options.start), to)) {
      // A burst is several chapters a millisecond apart, in order.
      for (let k = 0; k < moment.count; k++) times.push(moment.at + k)
    }
  }
  // Numbers follow release order.
  for (const at of times.sort((a, b) => a - b)) push(at)
  const finished = schedule[schedule.length - 1]!.cadence === 'finished'
  return chapters.map((c, i) => ({ ...c, label: chapterLabel(style, c.number, slug, finished && i === chapters.length - 1) }))
}

/** A chapter's label in a Series' style; the parser must read `number` back from it. */
export function chapterLabel(style: LabelStyle, n: number, slug: string, end = false): string {
  const word = slug.split('-')[0]!
  const text = (() => {
    switch (style) {
      case 'chapter':
        return `Chapter ${n}`
      case 'ch-title':
        return `Ch. ${n} - The ${word[0]!.toUpperCase()}${word.slice(1)}`
      case 'episode':
        return `Episode ${n}`
      case 'vol-ch':
        return `Vol.${Math.floor(n / 10) + 1} Ch.${n}`
      case 'hash':
        return `#${n}`
    }
  })()
  return end ? `${text} [END]` : text
}
