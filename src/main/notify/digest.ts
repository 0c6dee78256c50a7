/**
 * The rules (docs/adr/0074-a-durable-outbox-for-notifications.md), pure: which New Chapters of a pass each Reader
 * is told of, as one digest per Reader, and when quiet hours hold it. A Reader hears only of Series they hold,
 * never muted ones, only when their unread count reached their threshold, and nothing of a Series bookmarked
 * after the check before the New Chapter (a bookmark just made, an import). The owner hears of every one.
 */
import { chapterWords } from '../../shared/format'
import type { NotifyChapterRow } from '../store/schema'
import type { HolderUnread } from './unread'

export interface DigestChapter {
  site: string
  seriesId: string
  title: string
  chapter: number
  label: string
  chapterUrl: string
  /** How many New Chapters of this Series the message stands for (the batch's, or more after quiet hours). */
  count?: number
}

/** One message: a Reader's (or, with `reader` null, the owner's) New Chapters of one pass. */
export interface Digest {
  reader: string | null
  newChapters: DigestChapter[]
}

export interface ReaderRules {
  minUnread: number
  quietHours: { from: string; to: string } | null
  /** IANA time zone of the quiet hours ('' = the machine's). */
  timeZone: string
  /** `site/seriesId` of each muted Series. */
  muted: ReadonlySet<string>
}

export const DEFAULT_RULES: ReaderRules = { minUnread: 1, quietHours: null, timeZone: '', muted: new Set() }

/** A digest lists at most this many chapters (the rest are counted in its text). */
export const MAX_DIGEST_CHAPTERS = 50

export const seriesKeyOf = (c: { site: string; seriesId: string }): string => `${c.site}/${c.seriesId}`

/** One row per Series: its highest New Chapter of the batch, and the earliest check stamp before one of them. */
export function newestPerSeries(rows: readonly NotifyChapterRow[]): NotifyChapterRow[] {
  const bySeries = new Map<string, NotifyChapterRow>()
  for (const row of rows) {
    const key = `${row.site}/${row.series_id}`
    const seen = bySeries.get(key)
    if (!seen) bySeries.set(key, row)
    else
      bySeries.set(key, {
        ...(row.chapter > seen.chapter ? row : seen),
        previous_check_at: Math.min(row.previous_check_at, seen.previous_check_at),
      })
  }
  return [...bySeries.values()]
}

/** Whether one holder of a Series hears of its New Chapter. */
export function tells(holder: HolderUnread, chapter: NotifyChapterRow, rules: ReaderRules): boolean {
  if (holder.status === 'dropped') return false
  if (rules.muted.size > 0 && rules.muted.has(`${chapter.site}/${chapter.series_id}`)) return false
  if (holder.unreadCount < Math.max(1, rules.minUnread)) return false
  // Bookmarked (or imported) after the check before this one: the Reader never saw the Series without it.
  return holder.bookmarkedAt < chapter.previous_check_at
}

/**
 * The digests of one batch of New Chapters: one per Reader told of at least one (by Reader id), and the owner's
 * (every Series some Reader holds). `holders` gives each Series' holders (by `site/seriesId`).
 */
export function buildDigests(
  chapters: readonly NotifyChapterRow[],
  holders: ReadonlyMap<string, readonly HolderUnread[]>,
  rulesOf: (readerId: number) => ReaderRules,
): { readers: Map<number, Digest>; owner: Digest | null } {
  const readers = new Map<number, Digest>()
  const owner: DigestChapter[] = []
  const counts = new Map<string, Set<number>>()
  for (const row of chapters)
    counts.set(`${row.site}/${row.series_id}`, (counts.get(`${row.site}/${row.series_id}`) ?? new Set()).add(row.chapter))
  for (const c of newestPerSeries(chapters)) {
    const held = holders.get(`${c.site}/${c.series_id}`) ?? []
    if (held.length === 0) continue
    const count = counts.get(`${c.site}/${c.series_id}`)?.size ?? 1
    const base = { site: c.site, seriesId: c.series_id, title: c.title, chapter: c.chapter, label: c.label, count }
    owner.push({ ...base, chapterUrl: c.url })
    for (const h of held) {
      if (!tells(h, c, rulesOf(h.readerId))) continue
      const digest = readers.get(h.readerId) ?? { reader: h.name, newChapters: [] }
      digest.newChapters.push({ ...base, chapterUrl: h.chapterUrl || c.url })
      readers.set(h.readerId, digest)
    }
  }
  return { readers, owner: owner.length ? { reader: null, newChapters: owner } : null }
}

/** Two digests as one (quiet hours): each Series once, at its highest chapter; capped. */
export function mergeDigests(a: Digest, b: Digest): Digest {
  const bySeries = new Map<string, DigestChapter>()
  for (const c of [...a.newChapters, ...b.newChapters]) {
    const seen = bySeries.get(seriesKeyOf(c))
    if (!seen) bySeries.set(seriesKeyOf(c), c)
    else if (c.chapter !== seen.chapter) {
      const count = (seen.count ?? 1) + (c.count ?? 1)
      bySeries.set(seriesKeyOf(c), { ...(c.chapter > seen.chapter ? c : seen), count })
    }
  }
  return { reader: b.reader, newChapters: [...bySeries.values()].slice(0, MAX_DIGEST_CHAPTERS) }
}

/** A Series as a person names it: its title, or its id when the Site gave none. */
const nameOf = (c: DigestChapter): string => c.title.trim() || c.seriesId

/** "Solo Lantern — Ch 46": a Series and its newest chapter, in one line. */
export function seriesLine(c: DigestChapter): string {
  const count = c.count ?? 1
  const more = count > 1 ? ` (${count} new)` : ''
  return `${nameOf(c)} — Ch ${chapterWords(c.chapter)}${more}`
}

/** A label that says more than the number does ("Chapter 46: The Return"), or ''. */
function extraLabel(c: DigestChapter): string {
  const label = c.label.trim()
  const bare = new RegExp(`^(ch(apter|\\.)?|episode|ep\\.?|#)?\\s*0*${chapterWords(c.chapter).replace('.', '\\.')}$`, 'i')
  return label && !bare.test(label) ? label : ''
}

/**
 * What a message says, read at a glance: one Series names itself in the title ("Solo Lantern — Ch 46"), several
 * are counted there ("3 new chapters in 2 Series") and listed one per line in the body. Nothing twice: the body
 * never repeats the title, and no URL is written in it (a tap opens the chapter). Never a token.
 */
export function digestText(d: Digest): { title: string; body: string } {
  const series = d.newChapters
  const first = series[0]
  if (!first) return { title: 'No new chapters', body: '' }
  if (series.length === 1) {
    const count = first.count ?? 1
    const body =
      extraLabel(first) || (count > 1 ? `${count} new chapters, up to Ch ${chapterWords(first.chapter)}` : 'A new chapter to read')
    return { title: `${nameOf(first)} — Ch ${chapterWords(first.chapter)}`, body }
  }
  const chapters = series.reduce((sum, c) => sum + (c.count ?? 1), 0)
  const title = `${chapters} new chapters in ${series.length} Series`
  const lines = series.slice(0, 10).map(seriesLine)
  if (series.length > 10) lines.push(`and ${series.length - 10} more Series`)
  return { title, body: lines.join('\n') }
}

/** One notification a device shows: its words, the page a tap opens, and its tag (a later one with it replaces it). */
export interface Notice {
  title: string
  body: string
  url: string
  tag: string
}

/** A digest of more Series than this is one summary notification on a device, not one per Series. */
export const MAX_NOTICES = 3

/**
 * The notifications a push shows: one per Series, tagged by the Series (a newer chapter of it replaces the
 * older notification and buzzes again), or one summary when the digest names more than MAX_NOTICES Series.
 */
export function pushNotices(d: Digest): Notice[] {
  if (d.newChapters.length === 0) return []
  if (d.newChapters.length > MAX_NOTICES) {
    const { title, body } = digestText(d)
    return [{ title, body, url: d.newChapters[0]!.chapterUrl, tag: 'mb-new-chapters' }]
  }
  return d.newChapters.map((c) => ({
    ...digestText({ reader: d.reader, newChapters: [c] }),
    url: c.chapterUrl,
    tag: `mb-series:${seriesKeyOf(c)}`,
  }))
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/

/**
 * One formatter per named time zone: making one costs far more than using it (a digest asks once per quiet
 * Reader). The machine's zone ('') is made afresh each time: it may change while the app runs.
 */
const clockFormats = new Map<string, Intl.DateTimeFormat>()

function clockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = timeZone ? clockFormats.get(timeZone) : undefined
  if (!format) {
    // An unknown zone throws here, as before, and is never kept.
    format = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: timeZone || undefined })
    if (clockFormats.size >= 64) clockFormats.clear()
    if (timeZone) clockFormats.set(timeZone, format)
  }
  return format
}

/** Minutes since midnight of `at` in a time zone ('' = the machine's). */
export function localMinutes(at: number, timeZone: string): number {
  const parts = clockFormat(timeZone).formatToParts(new Date(at))
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return get('hour') * 60 + get('minute')
}

/** When the quiet hours around `now` end, or null when `now` is not in them. From 22:00 to 07:00 spans midnight. */
export function quietUntil(rules: Pick<ReaderRules, 'quietHours' | 'timeZone'>, now: number): number | null {
  const q = rules.quietHours
  const from = q && HHMM.exec(q.from)
  const to = q && HHMM.exec(q.to)
  if (!from || !to) return null
  const f = Number(from[1]) * 60 + Number(from[2])
  const t = Number(to[1]) * 60 + Number(to[2])
  const m = localMinutes(now, rules.timeZone)
  const inside = f < t ? m >= f && m < t : f > t ? m >= f || m < t : false
  if (!inside) return null
  const minutesLeft = (t - m + 1440) % 1440
  return now - (now % 60_000) + minutesLeft * 60_000
}
