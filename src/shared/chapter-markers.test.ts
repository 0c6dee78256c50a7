import { describe, expect, it } from 'vitest'
import {
  CHAPTER_AFTER,
  CHAPTER_BEFORE,
  VOLUME_AFTER,
  VOLUME_BEFORE,
  asciiDigits,
  hanNumeralValue,
  isHanNumeral,
  isIdeographic,
  normaliseWord,
} from './chapter-markers'

describe('Han numerals', () => {
  it.each([
    ['十', 10],
    ['十二', 12],
    ['二十五', 25],
    ['三百一十一', 311],
    ['一百零五', 105],
    ['两千', 2000],
    ['兩百', 200],
    ['万', 10_000],
    ['一万二千', 12_000],
    ['三萬', 30_000],
    ['〇', 0],
    ['零', 0],
    ['一〇二', 102],
    ['九九', 99],
  ])('%s is %d', (run, value) => {
    expect(hanNumeralValue(run)).toBe(value)
  })

  it('the numerals and nothing else are numerals', () => {
    expect([...'〇零一二两兩三四五六七八九十百千万萬'].every(isHanNumeral)).toBe(true)
    expect([...'第话章卷人'].some(isHanNumeral)).toBe(false)
  })
})

describe('the scripts', () => {
  it('digits of Arabic-Indic, Persian, Devanagari and Thai are ASCII digits; others stay', () => {
    expect(asciiDigits('٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹ ०१२३४५६७८९ ๐๑๒๓๔๕๖๗๘๙')).toBe('0123456789 0123456789 0123456789 0123456789')
    expect(asciiDigits('١٢abc')).toBe('12abc')
  })

  it('Han, kana and Hangul syllables are ideographic; Latin, Cyrillic, Thai and Arabic are not', () => {
    expect([...'第話あアㄱ가힣'].map((c) => isIdeographic(c.charCodeAt(0)))).toEqual([true, true, true, true, false, true, true])
    expect([...'aЖกع'].some((c) => isIdeographic(c.charCodeAt(0)))).toBe(false)
  })

  it('a word is lowercase without accents, its Hangul and kana recomposed', () => {
    expect(normaliseWord('BÖLÜM')).toBe('bolum')
    expect(normaliseWord('Chương')).toBe('chuong')
    expect(normaliseWord('화')).toBe('화')
    expect(normaliseWord('が')).toBe('が')
  })

  it('the tables hold their words as a label normalises them', () => {
    expect(CHAPTER_BEFORE.has('capitulo') && CHAPTER_BEFORE.has('глава') && CHAPTER_BEFORE.has('第')).toBe(true)
    expect(VOLUME_BEFORE.has('tap') && VOLUME_BEFORE.has('том') && VOLUME_BEFORE.has('卷')).toBe(true)
    expect(CHAPTER_AFTER.has('bolum') && CHAPTER_AFTER.has('话')).toBe(true)
    expect(VOLUME_AFTER.has('권') && !VOLUME_AFTER.has('화')).toBe(true)
  })
})
