/**
 * The integrity check's verdicts on real files (docs/adr/0046-the-file-the-app-opened.md): a sound database
 * passes, a damaged page fails with what `quick_check` found, a file that is no database at all is damaged too,
 * and a check that cannot run or is stopped gives no verdict against the file.
 */
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { corruptMiddlePage } from '../testing/faults'
import { describe, expect, it } from '../testing/fixtures'
import { ONE_PASS_CACHE_KIB, startIntegrityCheck } from './integrity'

/** A closed SQLite file with a table and an index over many pages (the check reads any SQLite file alike). */
function closedDatabase(dir: string): string {
  const file = join(dir, 'manga-bookmark.sqlite')
  const db = new BetterSqlite3(file)
  db.exec(`CREATE TABLE t(id INTEGER PRIMARY KEY, x TEXT); CREATE INDEX tx ON t(x);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT i, printf('%0200d', i) FROM n`)
  db.close()
  return file
}

describe('the integrity check', () => {
  it('passes a sound database with no problems', async ({ makeDir }) => {
    const file = closedDatabase(makeDir())
    const verdict = await startIntegrityCheck(file).verdict
    expect(verdict).toMatchObject({ ok: true, problems: [] })
    expect(verdict.ms).toBeGreaterThanOrEqual(0)
  })

  it('fails a database with a damaged page, saying what it found in a few plain lines', async ({ makeDir }) => {
    const file = closedDatabase(makeDir())
    corruptMiddlePage(file)
    const verdict = await startIntegrityCheck(file).verdict
    expect(verdict.ok).toBe(false)
    // What SQLite says, without the heading it puts before the first finding.
    expect(verdict.problems).toEqual([
      expect.stringMatching(/^Tree \d+ page \d+: btreeInitPage\(\) returns error code 11$/),
      'wrong # of entries in index tx',
    ])
  })

  it('fails a file that is not a database at all: SQLite cannot read it, so it is damaged', async ({ makeDir }) => {
    const file = join(makeDir(), 'manga-bookmark.sqlite')
    writeFileSync(file, 'not a database '.repeat(512))
    const verdict = await startIntegrityCheck(file).verdict
    expect(verdict.ok).toBe(false)
    expect(verdict.problems).toEqual([expect.stringMatching(/^quick_check: file is not a database/)])
  })

  it('that cannot run (no file to check) gives no verdict against the file, and says why', async ({ makeDir }) => {
    const verdict = await startIntegrityCheck(join(makeDir(), 'missing.sqlite')).verdict
    expect(verdict.ok).toBe(true)
    expect(verdict.problems).toEqual([expect.stringMatching(/^quick_check could not run: \S/)])
  })

  it('with a native module that cannot load gives no verdict against the file, and says why', async ({ makeDir }) => {
    const dir = makeDir()
    const file = closedDatabase(makeDir())
    const verdict = await startIntegrityCheck(file, { nativeBinding: join(dir, 'missing.node') }).verdict
    expect(verdict.ok).toBe(true)
    expect(verdict.problems).toEqual([expect.stringMatching(/^quick_check could not run: .*missing\.node/)])
  })

  it('whose worker fails before it can check (a broken install) gives no verdict against the file, and says why', async ({ makeDir }) => {
    const broken = join(makeDir(), 'broken-sqlite.js')
    writeFileSync(broken, "throw new Error('this install is broken')\n")
    const verdict = await startIntegrityCheck(closedDatabase(makeDir()), { module: broken }).verdict
    expect(verdict).toEqual({ ok: true, problems: ['quick_check could not run: this install is broken'], ms: 0 })
  })

  it('reads with a small page cache: each page is read once, so a larger one would only hold memory', async ({ makeDir }) => {
    // better-sqlite3 itself, with quick_check answering the cache it would have run with.
    const spy = join(makeDir(), 'cache-spy.cjs')
    writeFileSync(
      spy,
      `const Real = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))})
module.exports = class extends Real {
  pragma(source, options) {
    if (source.startsWith('quick_check')) return [{ quick_check: 'cache_size ' + super.pragma('cache_size', { simple: true }) }]
    return super.pragma(source, options)
  }
}
`,
    )
    const verdict = await startIntegrityCheck(closedDatabase(makeDir()), { module: spy }).verdict
    expect(verdict.problems).toEqual([`cache_size -${ONE_PASS_CACHE_KIB}`])
    expect(ONE_PASS_CACHE_KIB).toBeLessThanOrEqual(1024)
  })

  it('stopped before it ends, says so and condemns nothing', async ({ makeDir }) => {
    const file = closedDatabase(makeDir())
    const check = startIntegrityCheck(file)
    await check.cancel()
    expect(await check.verdict).toEqual({ ok: true, problems: ['quick_check was stopped'], ms: 0 })
  })
})
