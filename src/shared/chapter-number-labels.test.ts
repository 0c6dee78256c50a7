import { describe, expect, it } from 'vitest'
import { collapseWhitespace, highestChapter, parseChapterNumber } from './chapter-number'

/**
 * Labels as Sites write them, with the number a reader of the list would say it names, and why:
 * [why, label, expected, Series title]. The rules are docs/adr/0025-chapter-numbers-as-the-ecosystem-reads-them.md.
 */
const labels: Array<[why: string, label: string, expected: number | null, title?: string]> = [
  // Sub-chapters: a letter a–i glued to a whole number is its tenth; anything else after it is a word.
  ['a glued letter is a sub-chapter', 'Chapter 10a', 10.1],
  ['a letter after a dot is a sub-chapter', 'Chapter 10.b', 10.2],
  ['a letter after a hyphen is a sub-chapter', 'Chapter 10-c', 10.3],
  ['a letter after a comma is a sub-chapter', 'Ch.10,d', 10.4],
  ['i is the ninth and last sub-chapter', 'Chapter 10.i', 10.9],
  ['j is past the sub-chapters', 'Chapter 10.j', 10],
  ['a word after the hyphen is the title, even one that starts with a–i', 'Chapter 45-Final', 45],
  ['a word glued to the number is no sub-chapter', 'Chapter 2bis', 2],
  ['a spaced letter starts the title', 'Chapter 10 b-side', 10],
  ['a comma and a space end the number', 'Chapter 12, Part 2', 12],
  ['a letter glued between two numbers is a separator (season 2, episode 5)', 'S2E5', 5],
  ['an episode glued after the chapter is no sub-chapter of it', 'Chapter 12e2', 12],
  ['a scanlation file name: volume 1, then chapter 3', 'v01c003', 3],
  ['an extra glued to the number', 'Chapter 404extra', 404.99],
  ['a trailing dot ends the number', 'Vol.2 Ch.12.', 12],
  // Markers glued to their numbers.
  ['ch glued to the number', 'ch10', 10],
  ['chapter glued to a decimal', 'Chapter10.5', 10.5],
  ['chp abbreviation', 'Chp 3', 3],
  ['plural marker before a range', 'Chapters 4-5', 5],
  ['eps abbreviation', 'Eps 7', 7],
  ['Spanish cap. abbreviation', 'Cap.15', 15],
  ['a marker through a dot and a spaced dash', 'Part 2 Ch. - 5', 5],
  ['a marker through a long run of glue', 'Part 2 Chapter : - # 5', 5],
  ['a hash at the start marks the number', '#12 Recap of Chapter 5', 12],
  ['e glued to a number is an episode', 'Part 2 e5', 5],
  ['a lone e before a spaced number is only a letter', 'Part 2 E 5', 2],
  ['a word glued to a number is no marker', 'Part2 - Chapter 5', 5],
  ['an accented marker is the marker (Spanish)', 'Tomo 2 Capítulo 31', 31],
  ['a full-width tilde is no part of the marker', 'Part 2 ～Chapter 5～', 5],
  ['a bar is no part of the marker', 'Part 2|Chapter 5', 5],
  // Volume, season and version tags.
  ['a volume tag through a dot and a spaced dash', 'Vol. - 2 Part 7', 7],
  ['only a volume, however spaced, is no chapter', 'Vol. - 2', null],
  ['a one-letter version tag glued by a dot', 'Punch v.2 028', 28],
  ['a one-letter version tag glued to its number', 'Punch v2 028', 28],
  ['a one-letter season tag glued to its number', 'S2 - 10', 10],
  ['a spaced one-letter tag is a word', 'Plan v 2', 2],
  ['a version tag comes after the plain number', 'v2 12', 12],
  ['a version tag alone is the chapter', 'Alones v.2', 2],
  ['a volume tag is never the chapter, even beside a version', 'Vol.1 v.2', 2],
  // extra / omake / special glued to a tag or a marker are split from it.
  ['an extra glued to a version tag', 'Fairy Tail 404.extrav2', 404.99, 'Fairy Tail'],
  ['an extra glued to a marker', 'Fairy Tail 404.extrach1', 404.99, 'Fairy Tail'],
  ['a special glued to a volume tag', 'Fairy Tail 404.specialvol002', 404.97, 'Fairy Tail'],
  ['an omake of a volume is no chapter', 'Omakevol.2', null],
  ['a word that only contains a property name of every object is a word', 'Chapter 7 Constructor', 7],
  // Which number is the chapter.
  ['a list index before the title is not the chapter', '12. Solo Leveling Chapter 33', 33, 'Solo Leveling'],
  ['a leading number without a title is not preferred to a marked one', '12. Solo Leveling Chapter 33', 33],
  ['the number right after the title, with a hash', 'Solo Leveling #33 (Chapter 1 redux)', 33, 'Solo Leveling'],
  ['after the title a volume tag is skipped', 'Solo Leveling Vol.2 33', 33, 'Solo Leveling'],
  ['the largest number that can be a chapter', 'Chapter 999999', 999999],
  ['a million is an id, not a chapter', 'Chapter 1000000', null],
  ['a Site that shows no title: the label is read whole', 'Chapter 5', 5, ''],
  ['a title of only white space is no title', '14 Days 2', 14, '   '],
  ['a title glued to punctuation is dropped', 'Ayame 14!3', 3, 'Ayame 14!'],
  ['the title is dropped after the chapter and leaves the chapter', 'Chapter 5 - Solo Leveling', 5, 'Solo Leveling'],
  ['a title is not cut out of a longer number', 'Chapter 17 Seeds of Doubt', 17, '7 Seeds'],
  ['a title starting with punctuation is dropped when glued', 'Vol.1!Ayame 14 3', 3, '!Ayame 14'],
]

describe('parseChapterNumber: labels a reader would recognise', () => {
  it.each(labels)('%s', (_why, label, expected, title) => {
    expect(parseChapterNumber(label, title)).toBe(expected)
  })

  it('every combining accent, and only those, is dropped from a marker', () => {
    for (let mark = 0x2f0; mark <= 0x37f; mark++) {
      const label = `Part 2 Capi${String.fromCharCode(mark)}tulo 31`
      const accent = mark >= 0x300 && mark <= 0x36f
      expect([mark.toString(16), parseChapterNumber(label)]).toEqual([mark.toString(16), accent ? 31 : 2])
    }
  })
})

/**
 * Labels in the languages the known Sources serve, one family per row group (the table in docs/sites.md):
 * [why, label, expected].
 */
const languages: Array<[why: string, label: string, expected: number | null]> = [
  // Russian and Ukrainian: Том is the volume, Глава / Розділ the chapter.
  ['Russian volume then chapter', 'Том 1 Глава 308', 308],
  ['Russian abbreviated chapter', 'Т.2 Гл. 15', 15],
  ['Ukrainian volume then chapter', 'Том 3 Розділ 41.5', 41.5],
  ['Russian volume alone is no chapter', 'Том 4', null],
  // Chinese and Japanese: 第…话/話/章/回 is the chapter, 卷/巻 the volume; Han numerals are numbers.
  ['Chinese volume glued before the chapter', '卷2第25话', 25],
  ['Chinese volume suffix then the chapter', '第2卷 第26话', 26],
  ['Han numerals with units', '第三百一十一章', 311],
  ['Han zero', '第零話', 0],
  ['Han ten alone', '第十話 決戦', 10],
  ['Han numerals read place by place', '第一〇二话', 102],
  ['Han numerals with 万', '第一万二千话', 12000],
  ['Japanese volume and chapter with full-width digits', '第３巻 第１５話', 15],
  ['a Han numeral in a title is not a number', '一拳超人 第5话', 5],
  ['a lone Han numeral word is no chapter', '三国志', null],
  // Korean: 화/회 after the number is the chapter, 권 the volume, 부 the part.
  ['Korean chapter then a part', '13회#2', 13],
  ['Korean prefix and suffix', '제 7화', 7],
  ['Korean part then chapter', '2부 15화', 15],
  ['Korean volume suffix', '3권 20화', 20],
  // Thai: ตอนที่ is the chapter, เล่ม the volume.
  ['Thai volume then chapter', 'เล่ม 1 ตอนที่ 3', 3],
  ['Thai chapter glued to a longer word', 'มังงะตอนที่ 12', 12],
  ['Thai digits', 'ตอนที่ ๑๒', 12],
  // Vietnamese and Indonesian.
  ['Vietnamese chapter', 'Chương 120', 120],
  ['Vietnamese volume then chapter', 'Tập 3 Chương 21', 21],
  ['Indonesian volume then chapter', 'Jilid 2 Bab 14', 14],
  // French, Spanish, Portuguese, Italian, German.
  ['French volume then chapter', 'Tome 55 - Chapitre 517', 517],
  ['Spanish volume then chapter', 'Tomo 4 Capítulo 33', 33],
  ['Portuguese volume then chapter', 'Volume 2 Capítulo 10.5', 10.5],
  ['Italian volume then chapter', 'Volume 7 Capitolo 60', 60],
  ['German volume then chapter', 'Band 3 Kapitel 20', 20],
  // Turkish: the number may come before Bölüm (an ordinal "5. Bölüm").
  ['Turkish ordinal chapter', 'Cilt 2 - 5. Bölüm', 5],
  ['Turkish chapter first', 'Bölüm 88', 88],
  // Arabic, with Arabic-Indic digits.
  ['Arabic volume then chapter', 'المجلد 2 الفصل 15', 15],
  ['Arabic-Indic digits', 'الفصل ٤٢', 42],
]

/** Forms every language shares: a volume before a spaced dash, release tags, thousands. */
const forms: Array<[why: string, label: string, expected: number | null]> = [
  ['volume, a spaced dash and the chapter', '8 - 98 The Last Battle', 98],
  ['volume and chapter with an en dash', '12 – 104', 104],
  ['a descending spaced pair keeps the first', '98 - 8 Kills', 98],
  ['a year in parentheses is no chapter', 'Akira v01 (2013)', 1],
  ['a year in brackets after the chapter', '045 [2019]', 45],
  ['a resolution in brackets is no chapter', 'Episode 5 [1080p]', 5],
  ['a resolution alone in brackets leaves the chapter', '[1920x1080] 12', 12],
  ['a year outside brackets is still a number', 'Chapter 2013', 2013],
  ['a thousands separator', 'Chapter 1,074', 1074],
  ['a thousands separator after a short head', 'Chapter 12,345', 12345],
  ['a comma range of three-digit chapters stays a range', 'Ch 100,101', 101],
  ['a leading zero head is never thousands', '024,005', 24],
  ['a thousands separator with a decimal part', 'Chapter 1,074.5', 1074.5],
]

describe('parseChapterNumber: chapter labels in every language', () => {
  it.each(languages)('%s', (_why, label, expected) => {
    expect(parseChapterNumber(label)).toBe(expected)
  })

  it.each(forms)('%s', (_why, label, expected) => {
    expect(parseChapterNumber(label)).toBe(expected)
  })
})

describe('collapseWhitespace', () => {
  it('treats as white space exactly the characters a regular expression calls white space', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c)
      const expected = /\s/.test(ch) ? 'a b' : `a${ch}b`
      if (collapseWhitespace(`a${ch}b`) !== expected) expect(`U+${c.toString(16)}`).toBe('collapsed as /\\s/ does')
    }
  })

  it('collapses runs and trims both ends', () => {
    expect(collapseWhitespace(' \t a \n\n b  ')).toBe('a b')
  })

  it('keeps at most max characters and never ends on the space before a cut word', () => {
    expect(collapseWhitespace('abc def', 5)).toBe('abc d')
    expect(collapseWhitespace('abc def', 4)).toBe('abc')
    expect(collapseWhitespace('abcd', 4)).toBe('abcd')
    expect(collapseWhitespace('abcde', 4)).toBe('abcd')
  })

  it('never keeps half of a character outside the basic plane', () => {
    const astral = ['😀', '\u{10000}', '\u{10ffff}']
    for (const ch of astral) {
      expect(collapseWhitespace(`${'a'.repeat(3)}${ch}`, 4)).toBe('aaa')
      expect(collapseWhitespace(`${'a'.repeat(2)}${ch}`, 4)).toBe(`aa${ch}`)
    }
    expect(collapseWhitespace(`${'a'.repeat(511)}😀`, 512)).toBe('a'.repeat(511))
  })

  it('keeps the characters just outside the surrogates whole', () => {
    expect(collapseWhitespace('aa\ud7ff', 3)).toBe('aa\ud7ff')
    expect(collapseWhitespace('aa\ue000', 3)).toBe('aa\ue000')
  })
})

describe('highestChapter', () => {
  it('of two rows of the same chapter (a re-upload) keeps the first listed', () => {
    const rows = [
      { number: 12, url: 'first' },
      { number: 12, url: 'again' },
      { number: 11, url: 'older' },
    ]
    expect(highestChapter(rows)?.url).toBe('first')
  })
})
