/**
 * Runs the built-in family adapters over pages saved from real Sites and prints which parse right (the
 * Latest Chapter and the title, or for a Madara page that loads its list by XHR, the requests it asks for).
 * The saved pages are not in the repository (they are other people's pages); pass their folder:
 * `npx tsx src/main/sites/tools/real-pages.ts DIR`. What "right" is for each page was read off the page
 * by hand and is written below; a page missing from DIR is reported as missing.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { highestChapter } from '../../../shared/chapter-number'
import { FAMILIES, type FamilyKey } from '../families'
import type { AdapterStep } from '../site'

interface Expectation {
  file: string
  family: FamilyKey
  seriesUrl: string
  title?: string
  /** The Latest Chapter; null when the page lists none. */
  latest?: number | null
  /** For a page that asks for its chapter list: the request and its fallback URL. */
  follow?: { request: string; fallback: string }
}

const PAGES: Expectation[] = [
  {
    file: 'madara-comicproject-1.html',
    family: 'madara',
    seriesUrl: 'https://live.mangabooth.com/x/manga/manga-17-2/',
    title: 'Manga 17',
    follow: {
      request: 'https://live.mangabooth.com/x/manga/manga-17-2/ajax/chapters/',
      fallback: 'https://live.mangabooth.com/x/wp-admin/admin-ajax.php',
    },
  },
  {
    file: 'madara-sennovel-2.html',
    family: 'madara',
    seriesUrl: 'https://reaperscans.com/series/nano-machine/',
    title: 'Nano Machine',
    latest: 77,
  },
  {
    file: 'madara-sennovel-3.html',
    family: 'madara',
    seriesUrl: 'https://manhuadex.com/manhua/solo-leveling/',
    title: 'This Time I WIll Save You My Queen',
    latest: 172,
  },
  {
    file: 'madara-tankovault-4.html',
    family: 'madara',
    seriesUrl: 'https://toonily.com/serie/solo-leveling-0a10cf7b/',
    title: 'Solo Leveling',
    latest: 21,
  },
  {
    file: 'madara-tankovault-5.html',
    family: 'madara',
    seriesUrl: 'https://www.kunmanga.co.uk/manga/its-just-business',
    title: "It's Just Business",
    latest: 118,
  },
  {
    file: 'madara-tankovault-6.html',
    family: 'madara',
    seriesUrl: 'https://manhuaus.com/manga/reincarnation-of-the-heavenly-demon/',
    title: 'Reborn As The Heavenly Demon',
    latest: 131,
  },
  {
    file: 'mangadex-capymanga-1.json',
    family: 'mangadex',
    seriesUrl: 'https://mangadex.org/title/92dd8103-2a60-4a1a-a32d-b957bf4eb7dd/the-devil-raises-a-lady',
    title: 'The Devil Raises a Lady',
    latest: 23,
  },
  // The feed mixes seven languages; the newest English chapter is 97 (101 is another language's).
  {
    file: 'mangadex-capymanga-2.json',
    family: 'mangadex',
    seriesUrl: 'https://mangadex.org/title/736a2bf0-f875-4b52-a7b4-e8c40505b68a/x',
    latest: 97,
  },
  {
    file: 'mangadex-mangabloom-3.json',
    family: 'mangadex',
    seriesUrl: 'https://mangadex.org/title/04e6ab34-f9fe-46f4-961c-3df616d45285/x',
    latest: 32,
  },
  {
    file: 'mangathemesia-tankovault-1.html',
    family: 'mangathemesia',
    seriesUrl: 'https://rizzfables.com/manga/mercenary-enrollment/',
    title: 'Mercenary Enrollment',
    latest: 250,
  },
  // A list page cut down to its header: the title only, no episode list.
  {
    file: 'webtoons-scrapetoon-1.html',
    family: 'webtoons',
    seriesUrl: 'https://www.webtoons.com/en/fantasy/dark-moon-the-blood-altar/list?title_no=1',
    title: 'DARK MOON: THE BLOOD ALTAR',
    latest: null,
  },
]

const dir = process.argv[2]
if (!dir) {
  process.stderr.write('usage: real-pages.ts DIR\n')
  process.exit(2)
}
let right = 0
for (const expected of PAGES) {
  const path = join(dir, expected.file)
  if (!existsSync(path)) {
    process.stdout.write(`missing  ${expected.file}\n`)
    continue
  }
  const seriesUrl = new URL(expected.seriesUrl)
  const adapter = FAMILIES[expected.family].adapter()
  const body = readFileSync(path, 'utf8')
  const started = performance.now()
  let step: AdapterStep
  try {
    step = adapter.read({ url: adapter.request(seriesUrl).url, status: 200, contentType: '', body }, seriesUrl)
  } catch (error) {
    process.stdout.write(`WRONG    ${expected.file}: threw ${(error as Error).message}\n`)
    continue
  }
  const ms = performance.now() - started
  const problems = problemsOf(step, expected)
  if (problems.length === 0) right++
  process.stdout.write(
    `${problems.length ? 'WRONG' : 'right'}    ${expected.file} (${ms.toFixed(1)} ms)${problems.length ? `: ${problems.join('; ')}` : ''}\n`,
  )
}
process.stdout.write(`${right} of ${PAGES.length} parse right\n`)

/** What the adapter got wrong on a page, against what was read off it by hand (none when it parsed right). */
function problemsOf(step: AdapterStep, expected: Expectation): string[] {
  return step.kind === 'follow' ? followProblems(step, expected) : parsedProblems(step, expected)
}

/** A page that asked for its chapter list: the request, its fallback, and the title it already told. */
function followProblems(step: Extract<AdapterStep, { kind: 'follow' }>, expected: Expectation): string[] {
  const problems: string[] = []
  if (!expected.follow) problems.push(`asked for ${step.request.url}`)
  else {
    if (step.request.url !== expected.follow.request) problems.push(`request ${step.request.url}`)
    if (step.fallback?.url !== expected.follow.fallback) problems.push(`fallback ${step.fallback?.url}`)
  }
  if (expected.title !== undefined && step.partial?.title !== expected.title) problems.push(`title ${JSON.stringify(step.partial?.title)}`)
  return problems
}

/** A page read to its end: the Latest Chapter and the title. */
function parsedProblems(step: Extract<AdapterStep, { kind: 'parsed' }>, expected: Expectation): string[] {
  const problems: string[] = []
  if (expected.follow) problems.push('read no chapter list request')
  const latest = highestChapter(step.result.chapters)?.number ?? null
  if (expected.latest !== undefined && latest !== expected.latest) problems.push(`Latest Chapter ${latest}, expected ${expected.latest}`)
  if (expected.title !== undefined && step.result.title !== expected.title) problems.push(`title ${JSON.stringify(step.result.title)}`)
  return problems
}
