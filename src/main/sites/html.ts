/** Helpers shared by the HTML adapters. */
import * as cheerio from 'cheerio'
import type { Chapter } from './site'

export type Doc = cheerio.CheerioAPI

export function loadHtml(body: string): Doc {
  return cheerio.load(body)
}

/** Collapses white space; '' for nothing. */
export function cleanText(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim()
}

/** An absolute http(s) URL for an href, or '' when it is missing or of another scheme. */
export function absoluteHref(href: string | undefined, base: string): string {
  if (!href) return ''
  try {
    const url = new URL(href, base)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : ''
  } catch {
    return ''
  }
}

/** The first non-empty text among selectors, else the page's og:title, else undefined. */
export function titleOf($: Doc, selectors: readonly string[]): string | undefined {
  for (const selector of selectors) {
    const text = cleanText($(selector).first().text())
    if (text) return text
  }
  const og = cleanText($('meta[property="og:title"]').attr('content'))
  return og || undefined
}

/** Keeps chapters with a number; the same number twice keeps the first seen. */
export function distinctChapters(chapters: Array<Chapter | null>): Chapter[] {
  const seen = new Set<number>()
  const out: Chapter[] = []
  for (const chapter of chapters) {
    if (!chapter || seen.has(chapter.number)) continue
    seen.add(chapter.number)
    out.push(chapter)
  }
  return out
}
