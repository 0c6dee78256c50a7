/**
 * New Chapter notifications, batched per pass: one notice for everything one pass found. Pure. A Series
 * title and a chapter label are a Site's text: where the notification server reads the body as markup
 * (libnotify on Linux: `<b>`, `<a href>`, `<img src>` — docs/security.md), it is escaped.
 */
import { chapterWords } from '../../../shared/format'
import type { NewChapter } from '../../lanes/pass'

export interface Notice {
  title: string
  body: string
  /** The Series a click opens (the first of the batch). */
  open: { site: string; seriesId: string }
}

const MAX_LINES = 4

export interface NoticeOptions {
  /** The notification server renders body markup: Linux (the freedesktop notification spec). */
  markup: boolean
}

/** The platforms whose notification server reads the body as markup. */
export function rendersMarkup(platform: string): boolean {
  return platform === 'linux'
}

/** Text as literal body markup: the five characters markup gives a meaning escaped. */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!)
}

export function noticeFor(chapters: readonly NewChapter[], options: NoticeOptions): Notice | null {
  const first = chapters[0]
  if (!first) return null
  const text = options.markup ? escapeMarkup : (s: string) => s
  const open = { site: first.site, seriesId: first.seriesId }
  const series = new Set(chapters.map((c) => `${c.site}/${c.seriesId}`)).size
  // The summary line is plain text everywhere; only the body is read as markup (Linux).
  if (series === 1) {
    const newest = chapters.reduce((a, c) => (c.chapter > a.chapter ? c : a), first)
    const title = `${nameOf(first)} — Ch ${chapterWords(newest.chapter)}`
    const body = chapters.length > 1 ? `${chapters.length} new chapters` : text(newest.label) || 'A new chapter to read'
    return { title, body, open }
  }
  const lines = chapters.slice(0, MAX_LINES).map((c) => `${text(nameOf(c))} — ${text(c.label || `Chapter ${chapterWords(c.chapter)}`)}`)
  if (chapters.length > MAX_LINES) lines.push(`and ${chapters.length - MAX_LINES} more`)
  return { title: `${chapters.length} new chapters in ${series} Series`, body: lines.join('\n'), open }
}

/** A Series as a person names it: its title, or its id when the Site gave none. */
const nameOf = (c: NewChapter): string => c.title.trim() || c.seriesId
