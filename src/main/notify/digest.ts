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
  if (rules.muted.has(`${chapter.site}/${chapter.series_id}`)) return false
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
  for (const c of newestPerSeries(chapters)) {
    const held = holders.get(`${c.site}/${c.series_id}`) ?? []
    if (held.length === 0) continue
    const base = { site: c.site, seriesId: c.series_id, title: c.title, chapter: c.chapter, label: c.label }
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
    if (!seen || c.chapter > seen.chapter) bySeries.set(seriesKeyOf(c), c)
  }
  return { reader: b.reader, newChapters: [...bySeries.values()].slice(0, MAX_DIGEST_CHAPTERS) }
}

/** "3 New Chapters: A 42, B 17, C 5" — the digest in one line (titles and numbers only, never a token). */
export function digestText(d: Digest): { title: string; body: string } {
  const n = d.newChapters.length
  const title = n === 1 ? 'New Chapter' : `${n} New Chapters`
  const items = d.newChapters.slice(0, 10).map((c) => `${c.title || c.seriesId} ${chapterWords(c.chapter)}`)
  const more = n > 10 ? `, and ${n - 10} more` : ''
  return { title, body: `${title}: ${items.join(', ')}${more}` }
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/

/** Minutes since midnight of `at` in a time zone ('' = the machine's). */
export function localMinutes(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: timeZone || undefined,
  }).formatToParts(new Date(at))
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
