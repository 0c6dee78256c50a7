/**
 * Chapter numbers from labels, as the manga-reader ecosystem reads them (docs/adr/0025-chapter-numbers-as-the-ecosystem-reads-them.md).
 *
 * The label is normalised (compatibility forms, other scripts' digits as ASCII, accents dropped, lowercase,
 * white space collapsed) and cut to `MAX_PARSED_LABEL` characters; the Series title is dropped; the rest is
 * tokenised once into numbers (Han numerals too, next to 第/제 or a chapter word), words of any script
 * (an ideograph is a word of its own) and single separator characters; then each number is read with what is
 * glued to it (a thousands group, a decimal part, a range end, a sub-chapter letter, an extra/omake/special),
 * what follows it (a chapter word such as 话, 화 or Bölüm, or a volume word such as 卷 or 권) and what stands
 * before it (a chapter marker, or a volume, season or version tag, in the languages of chapter-markers.ts).
 * In brackets, a year or a resolution is the release's; "8 - 98" is a volume and its chapter. The chapter is, in order of preference: the number right
 * after the Series title, the first number after a chapter marker, the first number that is not a tag,
 * and last a version tag's number. Volume and season numbers are never the chapter. A label with no
 * number left is not a chapter (null).
 *
 * Every step is one pass over a bounded string, with no regular expression that can backtrack, so no
 * label costs more than linear time in its length (the hostile-label test in chapter-number.test.ts).
 * Pure: shared by the adapters and the Readers' page.
 */

import {
  CHAPTER_AFTER,
  CHAPTER_BEFORE,
  THAI_CHAPTER_ENDINGS,
  THAI_VOLUME_ENDINGS,
  VOLUME_AFTER,
  VOLUME_BEFORE,
  asciiDigits,
  hanNumeralValue,
  isHanNumeral,
  isIdeographic,
  normaliseWord,
} from './chapter-markers'

/** The longest label read, after white space is collapsed; the rest is never looked at. */
export const MAX_PARSED_LABEL = 512
/** A number this big is not a chapter (a date, an id) and is never read as one. */
export const MAX_CHAPTER_NUMBER = 1_000_000

type Token = { kind: 'num'; text: string } | { kind: 'word'; text: string } | { kind: 'sep'; text: string }

interface Candidate {
  value: number
  /** Index of the number's first token. */
  at: number
  /** Index of the first token after the number and what is glued to it. */
  end: number
  role: 'marked' | 'plain' | 'volume' | 'version'
}

const VERSION_TAGS = new Set(['ver', 'version', 'v'])
/** Words that, after a number, sort it just before the next chapter. */
const AFTER_WORDS = new Map([
  ['extra', '99'],
  ['omake', '98'],
  ['special', '97'],
])
/** Numbers in brackets that are a release's year or resolution, never a chapter ("(2013)", "[1080p]"). */
const RESOLUTION_UNITS = new Set(['p', 'k', 'x'])
/** A spaced dash between a volume and its chapter ("8 - 98"). */
const DASHES = new Set(['-', '\u2013', '\u2014'])
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
    const adjacent = candidates.find((c) => c.at === first && c.role !== 'volume')
    if (adjacent) return adjacent.value
  }
  return pick(candidates, 'marked') ?? pick(candidates, 'plain') ?? pick(candidates, 'version') ?? null
}

function pick(candidates: readonly Candidate[], role: Candidate['role']): number | undefined {
  return candidates.find((c) => c.role === role)?.value
}

/**
 * Compatibility forms folded (full-width digits), accents dropped, lowercase, white space collapsed, and cut
 * to `MAX_PARSED_LABEL`. White space is collapsed first and the pass stops at the cap, so a label of 4,000
 * spaces costs one pass over them and a 5 MB label no more than its first kilobytes.
 */
function normalise(raw: string): string {
  const collapsed = collapseWhitespace(raw, MAX_PARSED_LABEL)
  // ASCII (most labels): no compatibility form, accent nor other digit to fold, and lowercase makes no white space.
  if (isAscii(collapsed)) return collapsed.toLowerCase()
  const folded = normaliseWord(asciiDigits(collapseWhitespace(raw, MAX_PARSED_LABEL)))
  return collapseWhitespace(folded, MAX_PARSED_LABEL)
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false
  return true
}

/**
 * Runs of white space become one space, the ends are trimmed, and the result is cut to `max` characters
 * (never inside a surrogate pair). One pass that stops as soon as `max` characters are kept; a text already so
 * (most are) is answered as it is, with no string made.
 */
export function collapseWhitespace(text: string, max = Infinity): string {
  if (isCollapsed(text, max)) return text
  let out = ''
  let space = false
  for (let i = 0; i < text.length; i++) {
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

/** Whether `text` is as collapseWhitespace leaves it: `max` characters at most, white space only single spaces inside. */
function isCollapsed(text: string, max: number): boolean {
  if (text.length > max) return false
  // A space at the start is as bad as one after another.
  let afterSpace = true
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (!isSpace(c)) afterSpace = false
    else if (c !== 32 || afterSpace) return false
    else afterSpace = true
  }
  return !afterSpace || text.length === 0
}

/** The characters `\s` matches in a regular expression. */
export function isSpace(c: number): boolean {
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
 * One pass: digit runs, letter runs (any script), ideographs one word each (a run of Han numerals next to
 * 第/제 or a chapter or volume word is a number), and every other character as a separator of its own. A
 * letter run of extra/omake/special glued to a tag or marker is split in two ("extravol" → "extra", "vol").
 */
function tokenise(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const start = i
    const c = text.charCodeAt(i)
    if (isDigit(c)) {
      while (isDigit(text.charCodeAt(i))) i++
      tokens.push({ kind: 'num', text: text.slice(start, i) })
    } else if (isIdeographic(c)) {
      while (isHanNumeral(text[i]!)) i++
      if (i === start) i++
      pushIdeographs(tokens, text.slice(start, i), text[i])
    } else if (isWordChar(c)) {
      while (isWordChar(text.charCodeAt(i))) i++
      pushWord(tokens, text.slice(start, i))
    } else {
      tokens.push({ kind: 'sep', text: text[i]! })
      i++
    }
  }
  return tokens
}

/**
 * Ideographs: a run of Han numerals that stands as a number (`hanNumberStands`) is one number; anything else (a
 * run that does not stand, or the one ideograph that is not a numeral) is a word per character.
 */
function pushIdeographs(tokens: Token[], run: string, next: string | undefined): void {
  if (isHanNumeral(run[0]!) && hanNumberStands(tokens, next)) tokens.push({ kind: 'num', text: String(hanNumeralValue(run)) })
  else for (const ch of run) tokens.push({ kind: 'word', text: ch })
}

/** A word; one of extra/omake/special glued to a tag or a marker is split from it. */
function pushWord(tokens: Token[], word: string): void {
  const prefix = [...AFTER_WORDS.keys()].find((w) => word.startsWith(w) && isTagOrMarker(word.slice(w.length)))
  if (prefix) tokens.push({ kind: 'word', text: prefix }, { kind: 'word', text: word.slice(prefix.length) })
  else tokens.push({ kind: 'word', text: word })
}

/** A run of Han numerals is a number after 第 or 제, or before a chapter or volume word ("第三話", "三百话"). */
function hanNumberStands(tokens: Token[], next: string | undefined): boolean {
  const before = tokens.at(-1)?.text
  return before === '第' || before === '제' || (next !== undefined && (CHAPTER_AFTER.has(next) || VOLUME_AFTER.has(next)))
}

/** A letter of any script, or a mark that belongs to the letter before it (Thai vowels, Arabic harakat). */
function isWordChar(c: number): boolean {
  if (isLetter(c)) return true
  if (c < 0x80 || Number.isNaN(c) || isIdeographic(c)) return false
  return /[\p{L}\p{M}]/u.test(String.fromCharCode(c))
}

function isTagOrMarker(word: string): boolean {
  return CHAPTER_BEFORE.has(word) || VOLUME_BEFORE.has(word) || VERSION_TAGS.has(word)
}

/** Every number of the label with its role, in label order. Each token is looked at a bounded number of times. */
function readNumbers(tokens: Token[]): Candidate[] {
  const candidates: Candidate[] = []
  let depth = 0
  let i = 0
  while (i < tokens.length) {
    const token = tokens[i]!
    if (token.kind !== 'num') {
      depth = bracketDepth(depth, token.text)
      i++
      continue
    }
    const at = i
    const number = readNumber(tokens, i)
    i = number.next
    // Too long for a double is Infinity, past the bound too.
    if (number.value >= MAX_CHAPTER_NUMBER) continue
    if (depth > 0 && isReleaseTag(tokens, at, number)) continue
    candidates.push({ value: number.value, at, end: i, role: roleOf(tokens, at, i) })
  }
  markVolumeBeforeDash(tokens, candidates)
  return candidates
}

/** A number with what is glued to it: a thousands group, a decimal part, a range end, a sub-chapter. */
function readNumber(tokens: Token[], i: number): { value: number; text: string; next: number } {
  const first = readThousands(tokens, i) ?? readDecimal(tokens, i)
  const rangeEnd = readRangeEnd(tokens, first.next)
  // A range ("191-200", "100,101") is its last chapter; a descending pair keeps its first ("20-5").
  if (rangeEnd) return { value: Math.max(first.value, rangeEnd.value), text: first.text, next: rangeEnd.next }
  const suffix = first.hasFraction ? null : readSuffix(tokens, first.next, first.text)
  return suffix ? { ...suffix, text: first.text } : first
}

/**
 * "1,074" is one thousand and seventy-four where no range can be meant: the group after the comma has three
 * digits and either starts with 0 or follows a shorter head ("12,345"). "100,101" stays two chapters, and
 * "024,005" (a head with a leading zero) is never a thousands form.
 */
function readThousands(tokens: Token[], i: number): { value: number; text: string; hasFraction: boolean; next: number } | null {
  const head = tokens[i]!.text
  const group = tokens[i + 2]
  if (head.length > 3 || head.startsWith('0') || tokens[i + 1]?.text !== ',' || group?.text.length !== 3) return null
  if (group.kind !== 'num' || (head.length === 3 && !group.text.startsWith('0'))) return null
  let text = head
  let j = i + 1
  while (tokens[j]?.text === ',' && tokens[j + 1]?.kind === 'num' && tokens[j + 1]!.text.length === 3) {
    text += tokens[j + 1]!.text
    j += 2
  }
  const tail = readDecimal([{ kind: 'num', text }, ...tokens.slice(j, j + 2)], 0)
  return { ...tail, next: j + tail.next - 1 }
}

/** Brackets opened and not yet closed; a stray closing bracket closes nothing. */
function bracketDepth(depth: number, text: string): number {
  if (text === '(' || text === '[' || text === '\u3010') return depth + 1
  if (text === ')' || text === ']' || text === '\u3011') return Math.max(0, depth - 1)
  return depth
}

/** In brackets, a year ("(2013)") or a resolution ("[1080p]", "(1920x1080)") is the release's, never a chapter. */
function isReleaseTag(tokens: Token[], at: number, number: { value: number; text: string; next: number }): boolean {
  const year = number.text.length === 4 && number.value >= 1900 && number.value < 2100
  const unit = tokens[number.next]
  const before = tokens[at - 1]
  const resolution = (unit?.kind === 'word' && RESOLUTION_UNITS.has(unit.text)) || (before?.text === 'x' && tokens[at - 2]?.kind === 'num')
  return year || resolution
}

/** "8 - 98": a plain number, a spaced dash and a higher plain number are a volume and its chapter. */
function markVolumeBeforeDash(tokens: Token[], candidates: Candidate[]): void {
  for (let k = 0; k + 1 < candidates.length; k++) {
    const volume = candidates[k]!
    const chapter = candidates[k + 1]!
    const dash = chapter.at - volume.end === 3 && tokens[volume.end]!.text === ' ' && DASHES.has(tokens[volume.end + 1]!.text)
    const plain = volume.role === 'plain' && chapter.role === 'plain'
    if (dash && plain && tokens[volume.end + 2]!.text === ' ' && volume.value < chapter.value) volume.role = 'volume'
  }
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

/** What the number between `at` and `end` is: a chapter word after it decides, else what stands before it. */
function roleOf(tokens: Token[], at: number, end: number): Candidate['role'] {
  return roleAfter(tokens, end) ?? roleBefore(tokens, at)
}

/** A chapter or volume word right after the number, through at most a dot and a space ("25话", "5. Bölüm"). */
function roleAfter(tokens: Token[], end: number): Candidate['role'] | null {
  let j = end
  if (tokens[j]?.text === '.') j++
  if (tokens[j]?.text === ' ') j++
  const word = tokens[j]
  if (word?.kind !== 'word') return null
  if (CHAPTER_AFTER.has(word.text)) return 'marked'
  if (VOLUME_AFTER.has(word.text)) return 'volume'
  return null
}

/** What stands before the number at `at`: a chapter marker, a volume or season tag, a version tag, or nothing. */
function roleBefore(tokens: Token[], at: number): Candidate['role'] {
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
  const text = word.text
  if (CHAPTER_BEFORE.has(text) || endsWithAny(text, THAI_CHAPTER_ENDINGS)) return 'marked'
  // "e5" (as in "s2e5") is an episode only when glued; "e" alone is too common a letter.
  if (text === 'e' && touching) return 'marked'
  // A single Latin letter tag ("s2", "v.2") must be glued, so "it's 5" keeps its 5; "卷2" is a word of its own.
  const singleLetterOk = text.length > 1 || onlyDots || !isLetter(text.charCodeAt(0))
  if ((VOLUME_BEFORE.has(text) || endsWithAny(text, THAI_VOLUME_ENDINGS)) && singleLetterOk) return 'volume'
  if (VERSION_TAGS.has(text) && singleLetterOk) return 'version'
  return 'plain'
}

/** Thai is written without spaces, so a marker may end a longer word. */
function endsWithAny(word: string, endings: readonly string[]): boolean {
  return word.length > 1 && !isLetter(word.charCodeAt(0)) && endings.some((e) => word.endsWith(e))
}

/** The highest chapter of a list (the Latest Chapter is the highest, never simply the first row). */
export function highestChapter<T extends { number: number }>(chapters: readonly T[]): T | undefined {
  let best: T | undefined
  for (const chapter of chapters) if (!best || chapter.number > best.number) best = chapter
  return best
}
