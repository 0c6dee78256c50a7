/**
 * Chapter numbers from labels (docs/design.md#chapter-numbers): lowercase; drop the Series title;
 * drop volume and season tags; prefer the number after ch/chapter/ep/episode/#, else the first number.
 * A label with no number is not a chapter (null). A range like "Ch.191-200" is the release's last chapter,
 * never 191.2. Pure: shared by the adapters and the Readers' page.
 */
const NUMBER = String.raw`(\d+(?:\.\d+)?)`
const VOLUME_OR_SEASON = /(?<![a-z0-9])(?:volume|vol|v|season|s)\s*\.?\s*\d+(?:\.\d+)?/g
// The marker, then the number, then (glued by - or ~) an optional range end.
const MARKED = new RegExp(String.raw`(?<![a-z])(?:chapter|chap|ch|episode|ep|e|#)\s*\.?\s*:?\s*${NUMBER}(?:[-~]${NUMBER})?`)
const ANY = new RegExp(NUMBER)

export function parseChapterNumber(label: string, seriesTitle?: string): number | null {
  let text = label.toLowerCase().normalize('NFKC')
  const title = seriesTitle?.trim().toLowerCase()
  if (title) text = text.split(title).join(' ')
  text = text.replace(VOLUME_OR_SEASON, ' ')
  const marked = MARKED.exec(text)
  if (marked) return rangeEnd(Number(marked[1]), marked[2])
  const any = ANY.exec(text)
  return any ? finite(Number(any[1])) : null
}

function rangeEnd(start: number, end: string | undefined): number | null {
  const last = end === undefined ? NaN : Number(end)
  return finite(last > start ? last : start)
}

function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null
}

/** The highest chapter of a list (the Latest Chapter is the highest, never simply the first row). */
export function highestChapter<T extends { number: number }>(chapters: readonly T[]): T | undefined {
  let best: T | undefined
  for (const chapter of chapters) if (!best || chapter.number > best.number) best = chapter
  return best
}
