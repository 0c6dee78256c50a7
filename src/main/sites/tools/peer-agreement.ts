/**
 * Prints how often `parseChapterNumber` agrees with the big Android readers' own chapter-recognition tests.
 * The peer data is not in the repository; pass its path: `npx tsx src/main/sites/tools/peer-agreement.ts FILE`.
 * FILE is a JSON array of `{ source, test, manga, name, expected }` (expected: a number, or null for "not a
 * chapter"); agreement is |got − expected| < 1e-6, or both null. Documented disagreements: docs/adr/0025-….
 */
import { readFileSync } from 'node:fs'
import { parseChapterNumber } from '../../../shared/chapter-number'

interface PeerCase {
  source: string
  test: string
  manga: string
  name: string
  expected: number | null
}

const file = process.argv[2]
if (!file) {
  process.stderr.write('usage: peer-agreement.ts CHAPTER-CASES.json\n')
  process.exit(2)
}
const cases = JSON.parse(readFileSync(file, 'utf8')) as PeerCase[]
const bySource = new Map<string, { agree: number; total: number }>()
const disagreements: string[] = []
for (const c of cases) {
  const got = parseChapterNumber(c.name, c.manga)
  const agree = got === null || c.expected === null ? got === c.expected : Math.abs(got - c.expected) < 1e-6
  const tally = bySource.get(c.source) ?? { agree: 0, total: 0 }
  tally.total++
  if (agree) tally.agree++
  else disagreements.push(`  ${c.source}: ${JSON.stringify(c.name)} (title ${JSON.stringify(c.manga)}): peer ${c.expected}, ours ${got}`)
  bySource.set(c.source, tally)
}
const total = [...bySource.values()].reduce((a, t) => ({ agree: a.agree + t.agree, total: a.total + t.total }), { agree: 0, total: 0 })
const pct = (t: { agree: number; total: number }) => `${t.agree}/${t.total} (${((100 * t.agree) / t.total).toFixed(1)}%)`
for (const [source, tally] of bySource) process.stdout.write(`${source}: ${pct(tally)}\n`)
process.stdout.write(`all: ${pct(total)}\ndisagreements:\n${disagreements.join('\n')}\n`)
