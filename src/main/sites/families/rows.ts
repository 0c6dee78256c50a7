/** One chapter row of an HTML list, read the way every row-based family reads it. */
import type { Element } from 'domhandler'
import { parseChapterNumber } from '../../../shared/chapter-number'
import { parseReleaseDate } from '../dates'
import { absoluteHref, labelOf, MAX_DATE, readableText } from '../html'
import type { Chapter } from '../site'

/**
 * The chapter a row names: its number read from `name` (without what `skip` names, the Series `title` dropped), its URL from `href` made
 * absolute on `pageUrl`, its release date from `date` when that reads as one. Null when no number is read.
 */
export function rowChapter(
  parts: { name: Element; href: string | undefined; date?: Element | undefined; skip?: (el: Element) => boolean },
  title: string | undefined,
  pageUrl: string,
): Chapter | null {
  const { text, label } = labelOf(parts.name, parts.skip)
  const number = parseChapterNumber(text, title)
  if (number === null) return null
  const released = parts.date ? parseReleaseDate(readableText(parts.date, MAX_DATE)) : null
  return { number, label, url: absoluteHref(parts.href, pageUrl), released: released ?? undefined }
}

/** An `<a href>`. */
export const isLink = (el: Element): boolean => el.name === 'a' && el.attribs['href'] !== undefined
