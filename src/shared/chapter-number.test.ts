import { describe, expect, it } from 'vitest'
import { highestChapter, parseChapterNumber } from './chapter-number'

const cases: Array<[name: string, label: string, expected: number | null, title?: string]> = [
  ['plain chapter', 'Chapter 123', 123],
  ['decimal chapter', 'Chapter 123.5', 123.5],
  ['abbreviated with a title after a dash', 'Ch. 45 - Title', 45],
  ['episode', 'Episode 12', 12],
  ['volume then chapter', 'Vol.3 Ch.20', 20],
  ['volume, chapter and a title', 'Vol.3 Ch.21 - The Return', 21],
  ['hash number', '#7', 7],
  ['end marker', 'Chapter 100 [END]', 100],
  ['range is its last chapter, not 191.2', 'Ch.191-200', 200],
  ['season then episode', 'Season 2 Episode 5', 5],
  ['compact season and episode', 'S2E5', 5],
  ['volume spelled out', 'Volume 4 Chapter 31', 31],
  ['leading zeros', 'Chapter 007', 7],
  ['colon after the marker', 'Chapter: 56', 56],
  ['no space after the marker', 'chapter12', 12],
  ['upper case', 'CHAPTER 88', 88],
  ['chapter then a number in its title', 'Chapter 12 : The 3 Kingdoms', 12],
  ['title number before the chapter marker', 'The 100 Girlfriends Chapter 150', 150],
  ['Series title with a number is dropped', 'Kaiju No. 8 110', 110, 'Kaiju No. 8'],
  ['Series title dropped, bare number', 'Solo Leveling 120', 120, 'Solo Leveling'],
  ['bare number', '57', 57],
  ['bare decimal', '57.1', 57.1],
  ['a spaced dash is a title, not a range', 'Chapter 12 - 13 Reasons', 12],
  ['a descending range keeps its start', 'Ch.20-5', 20],
  ['version suffix', 'Chapter 12v2', 12],
  ['chapter zero', 'Chapter 0 - Prologue', 0],
  ['Japanese label', '第12話', 12],
  ['full-width digits', 'Chapter １２', 12],
  ['abbreviated episode', 'Ep. 9', 9],
  ['chap abbreviation', 'Chap 14', 14],
  ['trailing year in parentheses', 'Chapter 5 (2024)', 5],
  ['no number', 'Oneshot', null],
  ['prologue without a number', 'Prologue', null],
  ['only a volume tag is not a chapter', 'Vol. 2 Extra', null],
  ['empty label', '', null],
  ['only a season tag', 'Season 3', null],
]

describe('parseChapterNumber', () => {
  it.each(cases)('%s: %j', (_name, label, expected, title) => {
    expect(parseChapterNumber(label, title)).toBe(expected)
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
