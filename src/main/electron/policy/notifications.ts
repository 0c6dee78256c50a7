/** New Chapter notifications, batched per pass: one notice for everything one pass found. Pure. */
import { chapterWords } from '../../../shared/format'
import type { NewChapter } from '../../lanes/pass'

export interface Notice {
  title: string
  body: string
  /** The Series a click opens (the first of the batch). */
  open: { site: string; seriesId: string }
}

const MAX_LINES = 4

export function noticeFor(chapters: readonly NewChapter[]): Notice | null {
  const first = chapters[0]
  if (!first) return null
  const lines = chapters.slice(0, MAX_LINES).map((c) => `${c.title || c.seriesId} — ${c.label || `Chapter ${chapterWords(c.chapter)}`}`)
  if (chapters.length > MAX_LINES) lines.push(`and ${chapters.length - MAX_LINES} more`)
  return {
    title: chapters.length === 1 ? 'New Chapter' : `${chapters.length} New Chapters`,
    body: lines.join('\n'),
    open: { site: first.site, seriesId: first.seriesId },
  }
}
