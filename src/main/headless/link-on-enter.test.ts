import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { linkOnEnter } from './link-on-enter'

describe('a sign-in link on Enter', () => {
  it('prints a new link for each line typed, and nothing after it stops', async () => {
    const input = new PassThrough()
    const said: string[] = []
    let n = 0
    const stop = linkOnEnter(
      input,
      () => `http://127.0.0.1:4712/admin/?code=${++n}`,
      (line) => said.push(line),
    )
    input.write('\n')
    input.write('link\n')
    await new Promise((resolve) => setImmediate(resolve))
    expect(said.filter((l) => l.startsWith('sign in: '))).toEqual([
      'sign in: http://127.0.0.1:4712/admin/?code=1',
      'sign in: http://127.0.0.1:4712/admin/?code=2',
    ])
    stop()
    input.write('\n')
    await new Promise((resolve) => setImmediate(resolve))
    expect(n).toBe(2)
  })
})
