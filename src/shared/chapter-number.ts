/**
 * Chapter numbers from labels, as the manga-reader ecosystem reads them (docs/adr/0025-chapter-numbers-as-the-ecosystem-reads-them.md).
 *
 * The label is normalised (compatibility forms, accents dropped, lowercase, white space collapsed) and cut
 * to `MAX_PARSED_LABEL` characters; the Series title is dropped; the rest is tokenised once into numbers,
 * words and single separator characters; then each number is read with what is glued to it (a decimal
 * part, a range end, a sub-chapter letter, an extra/omake/special) and what stands before it (a chapter
 * marker, or a volume, season or version tag). The chapter is, in order of preference: the number right
 * after the Series title, the first number after a chapter marker, the first number that is not a tag,
 * and last a version tag's number. Volume and season numbers are never the chapter. A label with no
 * number left is not a chapter (null).
 *
 * Every step is one pass over a bounded string, with no regular expression that can backtrack, so no
 * label costs more than linear time in its length (the hostile-label test in chapter-number.test.ts).
 * Pure: shared by the adapters and the Readers' page.
 */

/** The longest label read, after white space is collapsed; the rest is never looked at. */
export const MAX_PARSED_LABEL = 512
/** A number this big is not a chapter (a date, an id) and is never read as one. */
export const MAX_CHAPTER_NUMBER = 1_000_000

type Token = { kind: 'num'; text: string } | { kind: 'word'; text: string } | { kind: 'sep'; text: string }

interface Candidate {
  value: number
  /** Index of the number's first token. */
  at: number
  role: 'marked' | 'plain' | 'volume' | 'version'
}

const MARKERS = new Set(['chapter', 'chapters', 'chap', 'chp', 'ch', 'episode', 'episodes', 'ep', 'eps', 'capitulo', 'cap'])
const VOLUME_TAGS = new Set(['vol', 'volume', 'season', 's'])
const VERSION_TAGS = new Set(['ver', 'version', 'v'])
/** Words that, after a number, sort it just before the next chapter. */
const AFTER_WORDS = new Map([
  ['extra', '99'],
  ['omake', '98'],
  ['special', '97'],
])
/** What may stand between a marker or a tag and its number ("ch. 4", "vol. - 2", "chapter #3"). */
const MARKER_GLUE = new Set([' ', '.', ':', '-', '_', '#', ','])

/**
 * The chapter number a label names, or null when it names none. `seriesTitle`, when given, is dropped from
 * the label first, so a title with digits ("Ayame 14") is never read as the chapter.
 */
export function parseChapterNumber(label: string, seriesTitle?: string): number | null {
  let text = normalise(label)
  let afterTitle = false
  const title = seriesTitle && normalise(seriesTitle)
  if (title) {
    const stripped = dropTitle(text, title)
    afterTitle = stripped.atStart
    text = stripped.text
  }
  const tokens = tokenise(text)
  const candidates = readNumbers(tokens)
  if (afterTitle) {
    const first = tokens.findIndex((t) => t.kind !== 'sep')
    // Only separators stand before it, so it is never a tag's number.
    const adjacent = candidates.find((c) => c.at === first)
    if (adjacent) return adjacent.value
  }
  const pick = (role: Candidate['role']) => candidates.find((c) => c.role === role)?.value
  return pick('marked') ?? pick('plain') ?? pick('version') ?? null
}

/**
 * Compatibility forms folded (full-width digits), accents dropped, lowercase, white space collapsed, and cut
 * to `MAX_PARSED_LABEL`. White space is collapsed first and the pass stops at the cap, so a label of 4,000
 * spaces costs one pass over them and a 5 MB label no more than its first kilobytes.
 */
function normalise(raw: string): string {
  const folded = collapseWhitespace(raw, MAX_PARSED_LABEL)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
  return collapseWhitespace(folded, MAX_PARSED_LABEL)
}

/**
 * Runs of white space become one space, the ends are trimmed, and the result is cut to `max` characters
 * (never inside a surrogate pair). One pass that stops as soon as `max` characters are kept.
 */
export function collapseWhitespace(text: string, max = Infinity): string {
  let out = ''
  let space = false
  for (let i = 0; i < text.length; i++) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the bound only spares reading the rest of a long label; the cut below keeps the same `max` characters
    if (out.length >= max) break
    if (isSpace(text.charCodeAt(i))) {
      space = out.length > 0
      continue
    }
    out += space ? ` ${text[i]!}` : text[i]!
    space = false
  }
  // A space and a character can overshoot by one; a cut between the halves of a surrogate pair keeps neither.
  const kept = out.slice(0, max)
  const last = kept.charCodeAt(kept.length - 1)
  return (last >= 0xd800 && last <= 0xdbff ? kept.slice(0, -1) : kept).trimEnd()
}

/** The characters `\s` matches in a regular expression. */
function isSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
}

/**
 * Drops every occurrence of the title that stands as whole words (a title "One" is not cut out of
 * "oneshot", "Ayame 14" not out of "ayame 145"), and says whether the label began with it.
 */
function dropTitle(text: string, title: string): { text: string; atStart: boolean } {
  let out = ''
  let from = 0
  let atStart = false
  let at = text.indexOf(title)
  while (at !== -1) {
    const end = at + title.length
    const whole =
      !(isAlnum(text.charCodeAt(at - 1)) && isAlnum(title.charCodeAt(0))) &&
      !(isAlnum(text.charCodeAt(end)) && isAlnum(title.charCodeAt(title.length - 1)))
    if (whole) {
      if (at === 0) atStart = true
      out += `${text.slice(from, at)} `
      from = end
    }
    at = text.indexOf(title, whole ? end : at + 1)
  }
  return { text: out + text.slice(from), atStart }
}

/** Whether a character code is a–z or 0–9; NaN (past either end of a string) is neither. */
function isAlnum(c: number): boolean {
  return isLetter(c) || isDigit(c)
}

/** '0'–'9'. */
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39
}

/** 'a'–'z' (the label is lowercase by then). */
function isLetter(c: number): boolean {
  return c >= 0x61 && c <= 0x7a
}

/**
 * One pass: digit runs, letter runs, and every other character as a separator of its own. A letter run of
 * extra/omake/special glued to a tag or marker is split in two ("extravol" → "extra", "vol"), so both count.
 */
function tokenise(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  // Stryker disable next-line EqualityOperator: one step past the end adds only a separator of nothing, which no rule reads
  while (i < text.length) {
    const start = i
    if (isDigit(text.charCodeAt(i))) {
      while (isDigit(text.charCodeAt(i))) i++
      tokens.push({ kind: 'num', text: text.slice(start, i) })
    } else if (isLetter(text.charCodeAt(i))) {
      while (isLetter(text.charCodeAt(i))) i++
      const word = text.slice(start, i)
      const prefix = [...AFTER_WORDS.keys()].find((w) => word.startsWith(w) && isTagOrMarker(word.slice(w.length)))
      if (prefix) tokens.push({ kind: 'word', text: prefix }, { kind: 'word', text: word.slice(prefix.length) })
      else tokens.push({ kind: 'word', text: word })
    } else {
      tokens.push({ kind: 'sep', text: text[i]! })
      i++
    }
  }
  return tokens
}

function isTagOrMarker(word: string): boolean {
  return MARKERS.has(word) || VOLUME_TAGS.has(word) || VERSION_TAGS.has(word)
}

/** Every number of the label with its role, in label order. Each token is looked at a bounded number of times. */
function readNumbers(tokens: Token[]): Candidate[] {
  // Stryker disable next-line ArrayDeclaration: a stray element has no index and no role, so no rule picks it
  const candidates: Candidate[] = []
  let i = 0
  while (i < tokens.length) {
    if (tokens[i]!.kind !== 'num') {
      i++
      continue
    }
    const at = i
    const first = readDecimal(tokens, i)
    let value = first.value
    i = first.next
    const rangeEnd = readRangeEnd(tokens, i)
    if (rangeEnd) {
      // A range ("191-200", "100,101") is its last chapter; a descending pair keeps its first ("20-5").
      value = Math.max(value, rangeEnd.value)
      i = rangeEnd.next
    } else if (!first.hasFraction) {
      const suffix = readSuffix(tokens, i, first.text)
      if (suffix) {
        value = suffix.value
        i = suffix.next
      }
    }
    // Too long for a double is Infinity, past the bound too.
    if (value >= MAX_CHAPTER_NUMBER) continue
    candidates.push({ value, at, role: roleOf(tokens, at) })
  }
  return candidates
}

/** Digits, then optionally "." and digits. */
function readDecimal(tokens: Token[], i: number): { value: number; text: string; hasFraction: boolean; next: number } {
  const whole = tokens[i]!.text
  if (tokens[i + 1]?.text === '.' && tokens[i + 2]?.kind === 'num') {
    const text = `${whole}.${tokens[i + 2]!.text}`
    return { value: Number(text), text, hasFraction: true, next: i + 3 }
  }
  return { value: Number(whole), text: whole, hasFraction: false, next: i + 1 }
}

/** "-", "~" or "," glued between two numbers joins a range, never a decimal point. */
function readRangeEnd(tokens: Token[], i: number): { value: number; next: number } | null {
  const glue = tokens[i]?.text
  if ((glue === '-' || glue === '~' || glue === ',') && tokens[i + 1]?.kind === 'num') {
    const end = readDecimal(tokens, i + 1)
    return { value: end.value, next: end.next }
  }
  return null
}

/**
 * What follows a whole number: a sub-chapter letter glued to it ("19a", "4.a", "122-a", "300,a": a is .1,
 * b .2, … i .9), or extra/omake/special glued or after a space (.99, .98, .97).
 */
function readSuffix(tokens: Token[], i: number, whole: string): { value: number; next: number } | null {
  let j = i
  const glue = tokens[j]?.text
  const glued = glue === '.' || glue === '-' || glue === ','
  if (glued || glue === ' ') j++
  const word = tokens[j]
  if (word?.kind !== 'word') return null
  const after = AFTER_WORDS.get(word.text)
  if (after) return { value: Number(`${whole}.${after}`), next: j + 1 }
  const letter = word.text
  // A word is letters a–z, so a letter up to i is one of a…i.
  const isSubChapter = (glued || j === i) && letter.length === 1 && letter <= 'i' && tokens[j + 1]?.kind !== 'num'
  if (!isSubChapter) return null
  return { value: Number(`${whole}.${letter.charCodeAt(0) - 96}`), next: j + 1 }
}

/** What stands before the number at `at`: a chapter marker, a volume or season tag, a version tag, or nothing. */
function roleOf(tokens: Token[], at: number): Candidate['role'] {
  let j = at - 1
  let touching = true
  let onlyDots = true
  // A run of glue is looked back over by the one number after it only, so the walk stays linear unbounded.
  while (j >= 0 && MARKER_GLUE.has(tokens[j]!.text)) {
    if (tokens[j]!.text === '#') return 'marked'
    if (tokens[j]!.text !== '.') onlyDots = false
    touching = false
    j--
  }
  const word = tokens[j]
  if (word?.kind !== 'word') return 'plain'
  if (MARKERS.has(word.text)) return 'marked'
  // "e5" (as in "s2e5") is an episode only when glued; "e" alone is too common a letter.
  if (word.text === 'e' && touching) return 'marked'
  // A single-letter tag ("s2", "v.2") must be glued, so "it's 5" keeps its 5.
  const singleLetterOk = word.text.length > 1 || onlyDots
  // Stryker disable next-line StringLiteral: no rule picks a volume's number, so any other name reads the same
  if (VOLUME_TAGS.has(word.text) && singleLetterOk) return 'volume'
  if (VERSION_TAGS.has(word.text) && singleLetterOk) return 'version'
  return 'plain'
}

/** The highest chapter of a list (the Latest Chapter is the highest, never simply the first row). */
export function highestChapter<T extends { number: number }>(chapters: readonly T[]): T | undefined {
  let best: T | undefined
  for (const chapter of chapters) if (!best || chapter.number > best.number) best = chapter
  return best
}
