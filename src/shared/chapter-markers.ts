/**
 * The words that mark a chapter or a volume in the languages the known Sources serve (the table in
 * docs/sites.md#chapter-labels-in-every-language). Every word is written here as `normaliseWord` leaves it
 * (accents dropped, lowercase), so a lookup is one `Set.has`.
 */

/** Accents dropped and lowercase, as the label is normalised (chapter-number.ts). */
export function normaliseWord(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
}

const words = (...list: string[]) => new Set(list.map(normaliseWord))

/** Before a number: the number is a chapter ("Глава 308", "Chương 12", "الفصل 5"). */
export const CHAPTER_BEFORE = words(
  // English, and the abbreviations the ecosystem writes
  'chapter',
  'chapters',
  'chap',
  'chp',
  'ch',
  'episode',
  'episodes',
  'ep',
  'eps',
  // Spanish, Portuguese, Italian, French, German, Indonesian, Turkish, Vietnamese
  'capítulo',
  'cap',
  'capitolo',
  'episodio',
  'chapitre',
  'épisode',
  'kapitel',
  'folge',
  'bab',
  'bölüm',
  'chương',
  'hồi',
  // Russian, Ukrainian
  'глава',
  'гл',
  'розділ',
  'эпизод',
  'епізод',
  // Chinese, Japanese, Korean ("第25话", "第3話", "제13화")
  '第',
  '제',
  // Thai
  'ตอนที่',
  'ตอน',
  'บทที่',
  // Arabic
  'الفصل',
  'فصل',
  'الحلقة',
  'حلقة',
)

/** Before a number: the number is a volume or a season, never the chapter ("Том 1", "Tome 55", "卷2"). */
export const VOLUME_BEFORE = words(
  'vol',
  'volume',
  'season',
  's',
  'tome',
  'tomo',
  'band',
  'jilid',
  'cilt',
  'sezon',
  'tập',
  'том',
  '卷',
  'เล่ม',
  'المجلد',
  'مجلد',
)

/** After a number: the number is a chapter ("25话", "13화", "5. Bölüm"). */
export const CHAPTER_AFTER = words('话', '話', '章', '回', '集', '화', '회', '장', 'bölüm')

/** After a number: the number is a volume or a season ("第2卷", "1권", "2부"). */
export const VOLUME_AFTER = words('卷', '巻', '册', '冊', '권', '부', '季')

/** Thai is written without spaces between words: a word ending in one of these is the marker. */
export const THAI_CHAPTER_ENDINGS = ['ตอนที่', 'ตอน', 'บทที่'].map(normaliseWord)
export const THAI_VOLUME_ENDINGS = ['เล่มที่', 'เล่ม'].map(normaliseWord)

/** Han numerals: digits and the units that multiply them ("三百一十一" 311, "第零話" 0, "一〇二" 102). */
const HAN_DIGITS = new Map([...'〇零一二三四五六七八九'].map((c, i) => [c, Math.max(0, i - 1)]))
HAN_DIGITS.set('两', 2).set('兩', 2)
const HAN_UNITS = new Map([
  ['十', 10],
  ['百', 100],
  ['千', 1000],
])

export function isHanNumeral(ch: string): boolean {
  return HAN_DIGITS.has(ch) || HAN_UNITS.has(ch) || ch === '万' || ch === '萬'
}

/** The value of a run of Han numerals; digits with no unit read place by place ("一〇二" is 102). */
export function hanNumeralValue(run: string): number {
  if (![...run].some((c) => HAN_UNITS.has(c) || c === '万' || c === '萬')) {
    return [...run].reduce((n, c) => n * 10 + HAN_DIGITS.get(c)!, 0)
  }
  let total = 0
  let section = 0
  let digit = 0
  for (const c of run) {
    const unit = HAN_UNITS.get(c)
    if (unit) {
      section += (digit || 1) * unit
      digit = 0
    } else if (c === '万' || c === '萬') {
      total += (section + digit || 1) * 10_000
      section = 0
      digit = 0
    } else digit = HAN_DIGITS.get(c)!
  }
  return total + section + digit
}

/** Characters written one word each: Han, kana and Hangul syllables have no spaces between words. */
export function isIdeographic(c: number): boolean {
  return (
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xac00 && c <= 0xd7af)
  )
}

/** Decimal digits of other scripts (Arabic-Indic, Persian, Devanagari, Thai) as ASCII. */
export function asciiDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9\u0966-\u096f\u0e50-\u0e59]/g, (d) => {
    const c = d.charCodeAt(0)
    const zero = c >= 0x0e50 ? 0x0e50 : c >= 0x0966 ? 0x0966 : c >= 0x06f0 ? 0x06f0 : 0x0660
    return String(c - zero)
  })
}
