import { readFileSync } from 'node:fs'
import { createGzip, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { IMPORT_MAX_ENTRIES } from '../../../shared/library'
import { encodeBackupMessage, MANGADEX_EN, tachibk } from '../../testing/library-files'
import { ImportError } from '../errors'
import { parseMihonBackup } from './backup'
import descriptor from './backup.proto.json' with { type: 'json' }
import { descriptorFromProto, PROTO_FILE } from './descriptor'
import { mangaDexTitleUrl, MANGADEX_SOURCE_IDS, sourceId } from './sources'

const ASURA = '6247824327199706550'

describe('the backup schema', () => {
  it('the descriptor the app loads is the one backup.proto makes (run npm run proto after editing it)', () => {
    expect(descriptorFromProto(readFileSync(PROTO_FILE, 'utf8'))).toEqual(descriptor)
  })

  it('source ids are MD5("name/lang/version") as Tachiyomi computes them', () => {
    // Published ids, as backups carry them.
    expect(sourceId('MangaDex', 'en')).toBe('2499283573021220255')
    expect(sourceId('Asura Scans', 'en')).toBe(ASURA)
    expect(MANGADEX_SOURCE_IDS.has('2499283573021220255')).toBe(true)
    expect(MANGADEX_SOURCE_IDS.has(ASURA)).toBe(false)
  })

  it.each([
    ['/manga/a96676e5-8ae2-425e-b549-7f15dd34a6d8', 'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8'],
    ['/title/A96676E5-8AE2-425E-B549-7F15DD34A6D8/komi', 'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8'],
    ['/manga/12345', null],
    ['/chapter/a96676e5-8ae2-425e-b549-7f15dd34a6d8', null],
  ])('the MangaDex manga url %s is the title %s', (url, title) => {
    expect(mangaDexTitleUrl(url)).toBe(title)
  })
})

describe('reading a backup', () => {
  it('each manga becomes an entry: source and url, title, the highest chapter read with its time, a status from its category', async () => {
    const parsed = await parseMihonBackup(
      tachibk({
        manga: [
          {
            source: MANGADEX_EN,
            url: '/manga/a96676e5-8ae2-425e-b549-7f15dd34a6d8',
            title: 'Komi',
            read: [1, 2, 12.5],
            unread: [13, 14],
            readAt: { 2: 1_600_000_000_000, 12.5: 1_690_000_000_000 },
            categories: [3],
          },
          { source: ASURA, url: '/manga/solo/', title: 'Solo', read: [-1], unread: [1] },
          { source: ASURA, url: '/manga/history-only/', title: 'Peeked', read: [1], favorite: false },
        ],
        categories: [
          { name: 'Favourites', order: 1 },
          { name: 'On hold', order: 3 },
        ],
        sources: [{ name: 'Asura Scans', sourceId: ASURA }],
      }),
    )
    expect(parsed.format).toBe('mihon')
    expect(parsed.entries).toEqual([
      {
        ref: 'manga 1',
        target: { kind: 'source', sourceId: MANGADEX_EN, path: '/manga/a96676e5-8ae2-425e-b549-7f15dd34a6d8' },
        title: 'Komi',
        status: 'waiting',
        progress: 12.5,
        progressAt: 1_690_000_000_000,
        inLibrary: true,
      },
      // Chapter -1 is "the source could not tell": nothing is read that can be named.
      { ref: 'manga 2', target: { kind: 'source', sourceId: ASURA, path: '/manga/solo/' }, title: 'Solo', inLibrary: true },
      {
        ref: 'manga 3',
        target: { kind: 'source', sourceId: ASURA, path: '/manga/history-only/' },
        title: 'Peeked',
        progress: 1,
        inLibrary: false,
      },
    ])
    expect(parsed.sourceNames.get(ASURA)).toBe('Asura Scans')
  })

  it('reports progress while decoding a long backup', async () => {
    const manga = Array.from({ length: 600 }, (_, i) => ({ source: ASURA, url: `/manga/m${i}/` }))
    const seen: Array<[number, number]> = []
    await parseMihonBackup(tachibk({ manga }), { onProgress: (done, total) => seen.push([done, total]) })
    expect(seen).toEqual([
      [250, 600],
      [500, 600],
      [600, 600],
    ])
  })
})

describe('a bad backup ends with a clear error', () => {
  const message = encodeBackupMessage({ manga: [{ source: ASURA, url: '/manga/a/', title: 'A', read: [1] }] })

  const cases: Array<[string, () => Buffer, RegExp]> = [
    ['not gzip', () => message, /^backup: not gzip/],
    [
      'a gzipped text, not the expected message',
      () => gzipSync('{"hello": "this is JSON, not a backup"}'),
      /^backup: .*not a Mihon\/Tachiyomi backup/,
    ],
    ['a gzipped message of another kind', () => gzipSync(Buffer.from([0x08, 0x96, 0x01])), /^backup: not a Mihon\/Tachiyomi backup/],
    [
      'a manga without its required url',
      () => gzipSync(Buffer.from([0x0a, 0x02, 0x08, 0x01])),
      /^backup: not a Mihon\/Tachiyomi backup at manga 1 \(missing required 'url'/,
    ],
    ['a truncated gzip stream', () => tachibk({ manga: [{ source: ASURA, url: '/manga/a/' }] }).subarray(0, 20), /^backup: truncated/],
    ['a truncated message in a whole gzip stream', () => gzipSync(message.subarray(0, message.length - 5)), /^backup: truncated/],
  ]

  it.each(cases)('%s', async (_name, make, expected) => {
    const error = await parseMihonBackup(make()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ImportError)
    expect((error as Error).message).toMatch(expected)
  })

  it('an empty backup is read as one with nothing in it', async () => {
    expect((await parseMihonBackup(gzipSync(Buffer.alloc(0)))).entries).toEqual([])
  })

  it('a gzip bomb stops at the unpacked limit without unpacking the rest', async () => {
    // 64 MiB of zeros gzip to about 64 KiB; the limit here is 8 MiB.
    const gzip = createGzip()
    const chunks: Buffer[] = []
    gzip.on('data', (c: Buffer) => chunks.push(c))
    const zeros = Buffer.alloc(1024 * 1024)
    for (let i = 0; i < 64; i++) gzip.write(zeros)
    await new Promise((resolve) => gzip.end(resolve))
    const bomb = Buffer.concat(chunks)
    expect(bomb.length).toBeLessThan(200_000)
    const before = process.memoryUsage().arrayBuffers
    const error = await parseMihonBackup(bomb, { maxUnpackedBytes: 8 * 1024 * 1024 }).catch((e: unknown) => e)
    expect((error as Error).message).toBe('backup: unpacks to more than 8 MiB, the most an import reads')
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(40 * 1024 * 1024)
  })

  it(`a backup of more than ${IMPORT_MAX_ENTRIES} manga is refused before any manga is decoded`, async () => {
    const manga = Array.from({ length: IMPORT_MAX_ENTRIES + 1 }, (_, i) => ({ source: ASURA, url: `/m/${i}` }))
    const error = await parseMihonBackup(tachibk({ manga })).catch((e: unknown) => e)
    expect((error as Error).message).toMatch(/^backup: more than 50,000 manga/)
  })
})

describe('a hostile backup is read in time linear in it', () => {
  const many = (n: number, make: (i: number) => { url: string; lastRead: number }) => Array.from({ length: n }, (_, i) => make(i))

  // 20,000 read chapters all numbered 7 and 20,000 history entries matching none took 4.6 s (each history
  // entry was looked up in the list of the highest chapter's urls); at ten times that, it never ended here.
  it('200,000 read chapters of one number and 200,000 unmatched history entries: the Progress and its time', async () => {
    const chapters = Array.from({ length: 200_000 }, (_, i) => ({ url: `/c/${i}`, chapterNumber: 7, read: true }))
    const history = [
      ...many(200_000, (i) => ({ url: `/elsewhere/${i}`, lastRead: 1_700_000_000_000 + i })),
      { url: '/c/123', lastRead: 1_600_000_000_000 },
    ]
    const parsed = await parseMihonBackup(
      tachibk({ manga: [{ source: ASURA, url: '/manga/solo/', otherChapters: chapters, otherHistory: history }] }),
    )
    expect(parsed.entries[0]).toMatchObject({ progress: 7, progressAt: 1_600_000_000_000 })
  })

  // A spread of the read times into Math.max threw "Maximum call stack size exceeded" at 300,000.
  it('300,000 history entries of the chapter read: the latest time is taken', async () => {
    const history = many(300_000, (i) => ({ url: '/manga/solo/c/3', lastRead: 1_600_000_000_000 + i }))
    const parsed = await parseMihonBackup(tachibk({ manga: [{ source: ASURA, url: '/manga/solo/', read: [3], otherHistory: history }] }))
    expect(parsed.entries[0]).toMatchObject({ progress: 3, progressAt: 1_600_000_299_999 })
  })
})
