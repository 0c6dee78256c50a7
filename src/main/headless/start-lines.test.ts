import { describe, expect, it } from 'vitest'
import { startLines } from './start-lines'

const shell = (origin: string) => ({
  dataFile: '/data/manga-bookmark.sqlite',
  origin,
  port: 4711,
  adminUrl: 'http://127.0.0.1:4712/admin/?token=t',
  adminSignInUrl: 'http://127.0.0.1:4712/admin/?code=c',
  adminPort: 4712,
  demoReaders: [],
  core: { siteProblems: [] },
})

describe('the first start line', () => {
  it('says what serving on 0.0.0.0 means, keeping the shape tools read', () => {
    const [first] = startLines(shell('http://0.0.0.0:4711'), { logDir: '/data/logs' })
    expect(first).toMatch(
      /^data \/data\/manga-bookmark\.sqlite · serving http:\/\/0\.0\.0\.0:4711 \(port 4711\) — every address of this machine/,
    )
  })

  it('adds nothing to one address', () => {
    const [first] = startLines(shell('http://127.0.0.1:4711'), { logDir: '/data/logs' })
    expect(first).toBe('data /data/manga-bookmark.sqlite · serving http://127.0.0.1:4711 (port 4711)')
  })
})
