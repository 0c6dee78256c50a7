import { describe, expect, it } from 'vitest'
import { MAX_PARSED_LABEL, highestChapter, parseChapterNumber } from './chapter-number'

/** The conventions, one named rule per row: [rule, label, expected, Series title]. */
const conventions: Array<[rule: string, label: string, expected: number | null, title?: string]> = [
  // The number after a chapter marker.
  ['plain chapter', 'Chapter 123', 123],
  ['decimal chapter', 'Chapter 123.5', 123.5],
  ['abbreviated with a title after a dash', 'Ch. 45 - Title', 45],
  ['episode', 'Episode 12', 12],
  ['abbreviated episode', 'Ep. 9', 9],
  ['chap abbreviation', 'Chap 14', 14],
  ['hash number', '#7', 7],
  ['colon after the marker', 'Chapter: 56', 56],
  ['no space after the marker', 'chapter12', 12],
  ['comma after the marker', 'Ch,12', 12],
  ['upper case', 'CHAPTER 88', 88],
  ['accented marker (Spanish)', 'Capítulo 31', 31],
  ['end marker', 'Chapter 100 [END]', 100],
  ['chapter zero', 'Chapter 0 - Prologue', 0],
  ['leading zeros', 'Chapter 007', 7],
  ['chapter then a number in its title', 'Chapter 12 : The 3 Kingdoms', 12],
  ['a number before the marker is a title', 'The 100 Girlfriends Chapter 150', 150],
  ['trailing year in parentheses', 'Chapter 5 (2024)', 5],
  ['the first marked number wins', 'Ch.1 (was Ch.2)', 1],
  // Documented choices: a range is its last chapter; "-" or "," between two numbers is never a decimal point.
  ['range is its last chapter, not 191.2', 'Ch.191-200', 200],
  ['range with a tilde', 'Chapter 12~13', 13],
  ['two chapters joined by a comma are the last', 'Ch 100,101', 101],
  ['a descending pair keeps its first, never 24.005', '024-005', 24],
  ['a comma between numbers is not a decimal point', 'the sunny, goes swimming 024,005', 24],
  ['a spaced dash is a title, not a range', 'Chapter 12 - 13 Reasons', 12],
  ['a descending range keeps its start', 'Ch.20-5', 20],
  // Sub-chapter letters: a is .1, b .2, … i .9; 19 and 19a are different chapters.
  ['letter glued to the number', 'Asu No Yoichi 19a', 19.1],
  ['letter after a dot', 'Vol.1 Ch.4.a: Misrepresentation', 4.1],
  ['letter b after a dot', 'Vol.1 Ch.4.b: Misrepresentation', 4.2],
  ['letter after a hyphen', 'ch 122-a', 122.1],
  ['letter after a comma', '300,a', 300.1],
  ['letter i is the last sub-chapter', 'Chapter 7i', 7.9],
  ['a letter past i is no sub-chapter', 'Chapter 7k', 7],
  ['a spaced letter is a word, not a sub-chapter', 'Chapter 5 a new day', 5],
  ['an ordinal suffix is no sub-chapter', 'The 3rd Night', 3],
  ['a decimal part beats a letter', 'Chapter 4.5b', 4.5],
  // extra / omake / special sort just before the next chapter.
  ['extra after a dot', 'Ch.4.extra: Misrepresentation', 4.99],
  ['extra after a space', 'Chapter 404 Extra', 404.99],
  ['extra after a comma', 'Ch,123,extra', 123.99],
  ['extra after a hyphen', 'Ch.123-extra', 123.99],
  ['omake', '404 omake', 404.98],
  ['special', '404.special', 404.97],
  ['extra glued to a volume tag', '404.extravol002', 404.99],
  ['omake glued to a volume tag', '404 omakevol002', 404.98],
  ['a word that merely starts with extra', 'Chapter 5 Extraordinary Day', 5],
  // Volume, season and version tags are never the chapter when another number is there.
  ['volume then chapter', 'Vol.3 Ch.20', 20],
  ['volume glued to the chapter', 'Vol.3Ch.20', 20],
  ['volume, chapter and a title', 'Vol.3 Ch.21 - The Return', 21],
  ['volume spelled out', 'Volume 4 Chapter 31', 31],
  ['volume after the number', 'Solanin 028 Vol. 2', 28, 'Solanin'],
  ['zero-padded volume', "Vol.001 Ch.003: Kaguya Doesn't Know Much", 3],
  ['version tag with a space before the chapter', 'Punch Ver002 028', 28],
  ['version tag glued to the chapter', '011v002: Assembly Time', 11],
  ['version after the marked chapter', 'Vol.1 Ch.5v.2: Alones', 5],
  ['version suffix', 'Chapter 12v2', 12],
  ['season then episode', 'Season 2 Episode 5', 5],
  ['compact season and episode', 'S2E5', 5],
  ['season tag before a dash', 'S3 - Chapter 20', 20],
  ['season in brackets', 'D.I.C.E[Season 001] Ep. 007', 7, 'D.I.C.E'],
  ['a possessive s is no season tag', "Jojo's 5", 5],
  ['a version tag alone is read', 'Mag Version 195.5', 195.5],
  ['only a volume tag is not a chapter', 'Vol. 2 Extra', null],
  ['only a season tag', 'Season 3', null],
  // The Series title is dropped first.
  ['title with digits is not a chapter', 'Ayame 14 1 - The summer of 14', 1, 'Ayame 14'],
  ['title with digits, marked chapter', 'Vol.1 Ch.1: March 25 (First Day Cohabiting)', 1, 'Ayame 14'],
  ['Series title with a number is dropped', 'Kaiju No. 8 110', 110, 'Kaiju No. 8'],
  ['Series title dropped, bare number', 'Solo Leveling 120', 120, 'Solo Leveling'],
  ['the number right after the title beats a later marker', 'Tokyo ESP 027: Part 002: Chapter 001', 27, 'Tokyo ESP'],
  ['title dropped in any case', 'BLEACH 567.b Down With Snowwhite', 567.2, 'Bleach'],
  ['a title is dropped only as whole words', 'Ayame 145', 145, 'Ayame 14'],
  ['a short title is not cut out of a word', 'Oneshot 3', 3, 'One'],
  ['title dropped from the middle', 'Vol.2 Solo Leveling 33', 33, 'Solo Leveling'],
  // Numbers and what is not a chapter.
  ['bare number', '57', 57],
  ['bare decimal', '57.1', 57.1],
  ['a time after the chapter', 'Fairy Tail 404: 00:00', 404],
  ['Japanese label', '第12話', 12],
  ['full-width digits', 'Chapter １２', 12],
  ['a lock glyph before the number', '🔒 61', 61],
  ['no number', 'Oneshot', null],
  ['prologue without a number', 'Prologue', null],
  ['empty label', '', null],
  ['a date-sized number is not a chapter', 'Chapter 20240105', null],
  ['a number too long for a double is not a chapter', '9'.repeat(400), null],
  // White space and length.
  ['white space is collapsed before parsing', 'ch' + ' '.repeat(4000) + '12', 12],
  ['hostile white space with no number', 'ch' + ' '.repeat(4000) + 'x', null],
  ['tabs and newlines', '\n\t\tChapter\t\n 73 \t', 73],
  ['nothing past the cap is read', 'x'.repeat(MAX_PARSED_LABEL) + ' Chapter 9', null],
]

describe('parseChapterNumber: the conventions', () => {
  it.each(conventions)('%s', (_rule, label, expected, title) => {
    expect(parseChapterNumber(label, title)).toBe(expected)
  })

  it('19 and 19a are different chapters, and 19a sorts between 19 and 20', () => {
    const [a, b, c] = ['Chapter 19', 'Chapter 19a', 'Chapter 20'].map((l) => parseChapterNumber(l)!)
    expect(a).toBeLessThan(b!)
    expect(b).toBeLessThan(c!)
  })

  it('an extra sorts after its chapter and before the next', () => {
    const [a, b, c] = ['Chapter 19', 'Chapter 19 Extra', 'Chapter 20'].map((l) => parseChapterNumber(l)!)
    expect(a).toBeLessThan(b!)
    expect(b).toBeLessThan(c!)
  })
})

// Timings of code instrumented for mutation testing mean nothing (and take minutes): not in a mutation run.
describe.skipIf(process.env['MB_MUTATION_RUN'] === '1')('parseChapterNumber: linear time', () => {
  const hostile = [
    'ch' + ' '.repeat(8_000) + 'x',
    '1'.repeat(8_000),
    'chapter'.repeat(2_000) + '.',
    'vol.'.repeat(2_000),
    '1-'.repeat(4_000),
    '1.a'.repeat(3_000),
    'extra'.repeat(2_000),
    ('# ' + ' .'.repeat(50)).repeat(100),
    '一'.repeat(8_000),
    '第一'.repeat(4_000),
    '1,000'.repeat(2_000),
    '(1080p '.repeat(1_000),
    '1 - 2 '.repeat(1_000),
    'ตอนที่'.repeat(1_000),
  ]

  function cost(labels: string[], title?: string, runs = 3): number {
    let best = Infinity
    for (let run = 0; run < runs; run++) {
      const started = performance.now()
      for (const label of labels) parseChapterNumber(label, title)
      best = Math.min(best, performance.now() - started)
    }
    return best
  }

  it('labels that froze the old regex parse at once', () => {
    // The old parser took 22 s on the first of these alone.
    expect(cost(hostile)).toBeLessThan(250)
  })

  it('doubling the length of the labels at most roughly doubles the work', () => {
    const input = (n: number) => Array.from({ length: 20 }, () => hostile.map((label) => label.repeat(n))).flat()
    const [one, two] = [input(20), input(40)]
    // Interleaved, the best of seven each: another process taking the CPU for a moment is not the parser's cost.
    let best = [Infinity, Infinity]
    for (let run = 0; run < 7; run++) best = [Math.min(best[0]!, cost(one, undefined, 1)), Math.min(best[1]!, cost(two, undefined, 1))]
    // Linear work doubles; the old regex's cubic work grew eightfold.
    expect(best[1]! / best[0]!).toBeLessThan(3)
  })

  it('a long title and a long label stay linear', () => {
    const title = 'a'.repeat(300) + 'b'
    const labels = Array.from({ length: 200 }, () => 'a'.repeat(5_000))
    expect(cost(labels, title)).toBeLessThan(250)
  })
})

describe('highestChapter', () => {
  it('is the highest number, not the first row', () => {
    const list = [{ number: 10 }, { number: 12 }, { number: 11 }]
    expect(highestChapter(list)).toEqual({ number: 12 })
  })
  it('is undefined for no chapters', () => {
    expect(highestChapter([])).toBeUndefined()
  })
})
