/**
 * Old Tachiyomi JSON backups (versions 1 and 2), written here as Tachiyomi's LegacyBackupManager wrote them:
 * read entry by entry, source ids exact past 2^53, Progress from the highest read chapter the backup numbers,
 * and what cannot come across listed with why.
 */
import { describe, expect, it } from 'vitest'
import { BUILT_IN_SITES } from '../../sites/builtin'
import { createRegistry } from '../../sites/registry'
import { planImport } from '../plan'
import { readLibrary } from '../read'
import { ImportError } from '../errors'
import { parseLegacyBackup } from './legacy'

// Manganato keeps the id of its former name, Manganelo: past 2^53, so a double would change it.
const MANGANATO = '1024627298672457456'

const V2 = `{"version":2,"mangas":[
  {"manga":["https://chapmanganato.com/manga/solo-leveling","Solo Leveling",${MANGANATO},0,0],
   "chapters":[{"u":"https://chapmanganato.com/manga/solo-leveling/chapter-12","r":1},{"u":"https://chapmanganato.com/manga/solo-leveling/chapter-13","r":1,"l":5},{"u":"https://chapmanganato.com/manga/solo-leveling/chapter-14","b":1}],
   "categories":["Dropped"],
   "history":[["https://chapmanganato.com/manga/solo-leveling/chapter-13",1600000000000],["https://chapmanganato.com/manga/solo-leveling/chapter-12",1500000000000]]},
  {"manga":["/manga/tower","12345678901234567890",${MANGANATO},0,0],"chapters":[{"u":"/chapter/991234","r":1}]},
  {"manga":["","No Address",${MANGANATO},0,0]},
  {"manga":["/local/Book","On The Phone",0,0,0]},
  {"manga":["/x","No Source"]},
  {"chapters":[]}
 ],
 "categories":[["Dropped",1]],
 "extensions":["${MANGANATO}:Manganelo","0:Local source"]}`

const V1 = `{"mangas":[
  {"manga":{"id":7,"source":${MANGANATO},"url":"/manga/night-sky","title":"Night Sky","artist":"","author":"","favorite":true,"viewer":0,"chapter_flags":0},
   "chapters":[{"url":"/manga/night-sky/c1","name":"Ch. 1","read":true,"chapter_number":1.0},{"url":"/manga/night-sky/c2","name":"Ch. 2.5","read":true,"chapter_number":2.5},{"url":"/manga/night-sky/c3","name":"Ch. 3","read":false,"chapter_number":3.0}],
   "categories":["Plan to Read"],
   "history":[{"url":"/manga/night-sky/c2","lastRead":1400000000000}]}
 ],
 "categories":[{"name":"Plan to Read","order":0,"flags":0}]}`

describe('an old Tachiyomi JSON backup', () => {
  it('version 2: each manga by its source id (exact past 2^53), status from its category, Progress from a URL that numbers the chapter', async () => {
    const parsed = await parseLegacyBackup(V2)
    expect(parsed.format).toBe('tachiyomi')
    expect(parsed.sourceNames).toEqual(
      new Map([
        [MANGANATO, 'Manganelo'],
        ['0', 'Local source'],
      ]),
    )
    expect(parsed.entries).toEqual([
      {
        ref: 'manga 1',
        target: { kind: 'source', sourceId: MANGANATO, path: 'https://chapmanganato.com/manga/solo-leveling' },
        title: 'Solo Leveling',
        status: 'dropped',
        progress: 13,
        progressAt: 1600000000000,
      },
      // A number inside a string is left as it is; a chapter URL that does not number it gives no Progress.
      { ref: 'manga 2', target: { kind: 'source', sourceId: MANGANATO, path: '/manga/tower' }, title: '12345678901234567890' },
    ])
    expect(parsed.unreadable).toEqual([
      { ref: 'manga 3', detail: '"No Address": its source gives it no address' },
      { ref: 'manga 4', detail: '"On The Phone": files of the local source, on no site' },
      { ref: 'manga 5', detail: '"No Source": no source id' },
      { ref: 'manga 6', detail: 'no manga in the record' },
    ])
  })

  it('version 1 (no version field): the records as objects, the chapter numbers the backup gives, the history by chapter', async () => {
    const parsed = await parseLegacyBackup(V1)
    expect(parsed.entries).toEqual([
      {
        ref: 'manga 1',
        target: { kind: 'source', sourceId: MANGANATO, path: '/manga/night-sky' },
        title: 'Night Sky',
        status: 'planned',
        progress: 2.5,
        progressAt: 1400000000000,
      },
    ])
    expect(parsed.unreadable).toEqual([])
  })

  it('is told apart from an export document by its content, and resolves by the same ids as a Mihon backup', async () => {
    const parsed = await readLibrary(Buffer.from(V2), 'tachiyomi_2019-01-01_12-00.json')
    expect(parsed.format).toBe('tachiyomi')
    // Keys in another order, as a hand-edited file may have them: told apart by parsing.
    const reordered = await readLibrary(Buffer.from(`{"extensions":[],${V2.slice(1)}`), 'b.json')
    expect(reordered.entries).toEqual(parsed.entries)
    const plan = planImport(parsed, { registry: createRegistry(BUILT_IN_SITES), mappings: new Map(), reader: { id: 1, name: 'Aiko' } })
    expect(plan.series.map((s) => s.seriesUrl)).toEqual([
      'https://www.natomanga.com/manga/solo-leveling',
      'https://www.natomanga.com/manga/tower',
    ])
    expect(plan.sources).toEqual([
      expect.objectContaining({
        name: 'Manganato',
        outcome: 'site-to-add',
        count: 2,
        resolved: 2,
        moved: [{ from: 'chapmanganato.com', to: 'www.natomanga.com', count: 1 }],
      }),
    ])
    expect(plan.entries).toBe(6)
    expect(plan.skipped.map((s) => s.reason)).toEqual(['unreadable', 'unreadable', 'unreadable', 'unreadable'])
  })

  it('quotes only whole integers of 16 digits or more outside strings: fractions, exponents and strings stay as written', async () => {
    const text = `{"version":2,"x":-12345678901234567,"y":0.12345678901234567,"z":1e12345678901234567,"mangas":[
      {"manga":["/m/a","A \\"${MANGANATO}\\"",${MANGANATO},0,0],"chapters":[{"u":"/m/a/chapter-3","r":1,"l":0.12345678901234567}]},
      {"manga":["/m/b","B",  ${MANGANATO} ,0,0]}]}`
    const parsed = await parseLegacyBackup(text)
    expect(parsed.entries.map((e) => [e.target, e.title, e.progress])).toEqual([
      [{ kind: 'source', sourceId: MANGANATO, path: '/m/a' }, `A "${MANGANATO}"`, 3],
      [{ kind: 'source', sourceId: MANGANATO, path: '/m/b' }, 'B', undefined],
    ])
  })

  it('refuses whole what it cannot read: another version, more manga than an import takes, broken JSON', async () => {
    await expect(parseLegacyBackup('{"version":3,"mangas":[]}')).rejects.toThrow(
      new ImportError('Tachiyomi backup: version 3 is not one this app reads (1 and 2)'),
    )
    const many = `{"version":2,"mangas":[${Array.from({ length: 50_001 }, () => '{}').join(',')}]}`
    await expect(parseLegacyBackup(many)).rejects.toThrow(/more than 50,000 manga/)
    await expect(readLibrary(Buffer.from('{"version":2,"mangas":[{]}'), 'b.json')).rejects.toThrow(/not valid JSON/)
    // Not a backup, not an export: the export document's own words.
    await expect(readLibrary(Buffer.from('{"mangas":"no"}'), 'b.json')).rejects.toThrow(/not a Manga Bookmark export/)
  })
})
