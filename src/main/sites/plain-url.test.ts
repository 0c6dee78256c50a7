/**
 * A plain URL (plain-url.ts) is one the URL parser writes back unchanged: checked against the parser on fixed
 * cases and on random URLs built from the parts that the parser rewrites (case, ports, dot segments, IPv4 forms,
 * punycode, escapes, credentials).
 */
import { describe, expect, it } from 'vitest'
import { plainHttpUrl } from './plain-url'

/** What the parser says of `text`: its href and host, or null when it does not parse. */
function parsed(text: string): { href: string; host: string; credentials: boolean } | null {
  try {
    const url = new URL(text)
    return { href: url.href, host: url.host, credentials: Boolean(url.username || url.password) }
  } catch {
    return null
  }
}

describe('a plain URL, recognised without the parser', () => {
  it.each([
    ['https://a.example/manga/s/chapter-12/', 'a.example'],
    ['http://127.0.0.1:4800/bench-a/manga/17/', '127.0.0.1:4800'],
    ['https://host-1.example/a_b~c.d', 'host-1.example'],
    ['https://localhost/', 'localhost'],
  ])('%s is plain, its host %s', (text, host) => {
    expect(plainHttpUrl(text)).toEqual({ host })
    expect(parsed(text)).toEqual({ href: text, host, credentials: false })
  })

  it.each([
    'https://A.example/x',
    'https://a.example',
    'https://a.example:443/x',
    'http://a.example:80/x',
    'https://a.example:0443/x',
    'https://a.example/a/../b',
    'https://a.example/./b',
    'https://a.example//b',
    'https://a.example/%2e%2e/b',
    'https://a.example/x?y=1',
    'https://a.example/x#y',
    'https://u@a.example/x',
    'https://xn--nxa.example/x',
    'https://127.1/x',
    'https://0x7f.0.0.1/x',
    'https://010.0.0.1/x',
    'https://a.1/x',
    'https://a.example./x',
    'ftp://a.example/x',
    'https://a.example/ x',
    'https://a.example\\x',
  ])('%s is not plain (the parser reads it)', (text) => {
    expect(plainHttpUrl(text)).toBeNull()
  })

  it('on random URLs, a plain one is always written back unchanged by the parser, its host the same', () => {
    const schemes = ['https://', 'http://', 'HTTPS://', 'https:/', 'ftp://', '']
    const hosts = [
      'a.example',
      'A.example',
      '127.0.0.1',
      '127.1',
      '0x7f.0.0.1',
      '1.2.3.4',
      '256.1.1.1',
      '01.2.3.4',
      'xn--nxa',
      'a..b',
      'a.',
      '.a',
      'a-b',
      '-a',
      'a_b',
      'ex',
      '9a.b',
      'a.9b',
      'u@a',
      'a%41',
      'é.example',
      '',
    ]
    const ports = ['', ':80', ':443', ':8080', ':0', ':65535', ':65536', ':08', ':', ':x']
    const path = ['/', 'a', '.', '..', '/.', '/..', '%2e', '-', '_', '~', 'A', '9', '?', '#', ' ', '\\', '//', ':', '@', '\t', 'é']
    let seed = 20261204
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n
    const pick = <T>(list: readonly T[]) => list[next(list.length)]!
    let plain = 0
    for (let i = 0; i < 40_000; i++) {
      const text = pick(schemes) + pick(hosts) + pick(ports) + '/' + Array.from({ length: next(8) }, () => pick(path)).join('')
      const found = plainHttpUrl(text)
      if (!found) continue
      plain++
      const url = parsed(text)
      if (!url || url.href !== text || url.host !== found.host || url.credentials)
        expect.fail(`${JSON.stringify(text)}: ${JSON.stringify(url)}`)
    }
    // The cases are not all rejected: the check above has said something.
    expect(plain).toBeGreaterThan(500)
  })
})
