import { describe, expect, it } from 'vitest'
import { MAX_CHALLENGE_TITLE, challengeReason, htmlTitle, isChallengePage } from './challenge'

const response = (status: number, body: string, headers: Record<string, string> = {}) => ({
  status,
  body,
  header: (name: string) => headers[name.toLowerCase()] ?? null,
})

/** The best of three runs, in ms: a moment another process took the CPU is not the function's cost. */
function cost(work: () => unknown): number {
  let best = Infinity
  for (let run = 0; run < 3; run++) {
    const started = performance.now()
    work()
    best = Math.min(best, performance.now() - started)
  }
  return best
}

describe('the title of a page', () => {
  it.each([
    ['a plain title', '<html><head><title>Tower Climber</title></head>', 'Tower Climber'],
    ['attributes and upper case', '<TITLE lang="en">Just a moment...</TITLE>', 'Just a moment...'],
    ['entities and white space', '<title>\n  Tom &amp; Jerry &hellip;\t</title>', 'Tom & Jerry …'],
    ['an unclosed title', '<title>never closed', ''],
    ['no title', '<h1>Nothing</h1>', ''],
    ['a title after 64 KB', `${' '.repeat(64 * 1024)}<title>late</title>`, ''],
    ['the first of two', '<title>one</title><title>two</title>', 'one'],
    ['a dotted capital I before it (lower-casing changes lengths)', 'İİİ<title>kept</title>', 'kept'],
  ])('%s', (_name, html, title) => {
    expect(htmlTitle(html)).toBe(title)
  })

  it(`is at most ${MAX_CHALLENGE_TITLE} characters`, () => {
    expect(htmlTitle(`<title>${'word '.repeat(10_000)}</title>`).length).toBeLessThanOrEqual(MAX_CHALLENGE_TITLE)
  })

  it('a 64 KB head of `<title>` repeated is read in one scan, not one per tag', () => {
    const hostile = '<title>'.repeat(9_362)
    expect(htmlTitle(hostile)).toBe('')
    // The lazy pattern this replaced took 250–1,000 ms here; one scan takes about one.
    expect(cost(() => htmlTitle(hostile))).toBeLessThan(50)
    expect(cost(() => htmlTitle(`<title>${'<title '.repeat(9_000)}>x`))).toBeLessThan(50)
  })
})

describe('recognising a challenge', () => {
  it.each([
    ['Just a moment...', true],
    ['Attention Required! | Cloudflare', true],
    ['Access denied | example.org used Cloudflare to restrict access', true],
    ['DDoS-Guard', true],
    ['Tower Climber – Chapter 3', false],
    ['Access denied to chapter 3 (a title about it)', false],
  ])('a page titled %j: %s', (title, challenge) => {
    expect(isChallengePage(title, '<p>page</p>')).toBe(challenge)
    expect(challengeReason(response(200, `<title>${title}</title>`)) !== null).toBe(challenge)
  })

  it('a marker in a 403 is a challenge; the same marker in a 200 is not', () => {
    expect(challengeReason(response(403, '<form id="challenge-form"></form>'))).toMatch(/challenge marker/)
    expect(challengeReason(response(200, '<form id="challenge-form"></form>'))).toBeNull()
  })

  it('a browser title of 64 KB that almost names Cloudflare is judged in linear time', () => {
    const title = `access denied | ${'cloudflare '.repeat(6_000)}\n x`
    // Uncapped, the title pattern took about 1.7 s on this.
    expect(cost(() => isChallengePage(title, ''))).toBeLessThan(50)
  })
})
