import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openStore, STORE_FILE } from '../store/database'
import { addChannel } from '../store/notify'
import { writeSettings } from '../store/settings'
import { startReceiver, type Receiver } from '../testing/receivers'
import { seedReader, seedSeries, tempDir } from '../testing/store'

const ROOT = join(import.meta.dirname, '../../..')
const CHILD = join(ROOT, 'src/main/testing/notify-child.ts')
let data: ReturnType<typeof tempDir>
let hook: Receiver
const children: ChildProcess[] = []

/** Runs the child in a mode until it says `word`, then kills it with SIGKILL. */
async function runUntilKilled(mode: 'check' | 'check-digest' | 'notify', word: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, data.dir, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  let err = ''
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      if (out.includes(word)) resolve()
    })
    child.on('exit', (code) => reject(new Error(`the child exited (${code}) before "${word}": ${err}`)))
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

beforeEach(async () => {
  data = tempDir('mb-outbox-')
  hook = await startReceiver('/hook')
  const store = openStore(join(data.dir, STORE_FILE), { now: 1 })
  await writeSettings(store.db, { notifyTargets: 'local-network' })
  const reader = await seedReader(store.db, 'ann')
  await seedSeries(store.db, { id: 'one', title: 'One', latest: 41, checkedAt: 1_000, readers: [reader] })
  await addChannel(store.db, reader, { kind: 'webhook', target: hook.url, secret: JSON.stringify({ secret: 's' }) }, 1)
  await store.close()
})

afterEach(async () => {
  for (const child of children) child.kill('SIGKILL')
  await hook.close()
  data.remove()
})

it('keeps a New Chapter through a SIGKILL before its digest, and delivers it once after the restart', { timeout: 60_000 }, async () => {
  await runUntilKilled('check', 'recorded')
  expect(hook.requests).toHaveLength(0)
  await runUntilKilled('notify', 'delivered')
  expect(hook.requests).toHaveLength(1)
  const body = JSON.parse(hook.requests[0]!.body.toString()) as {
    reader: string
    newChapters: Array<{ seriesId: string; chapter: number }>
  }
  expect(body).toMatchObject({ reader: 'ann', newChapters: [{ seriesId: 'one', chapter: 42 }] })
  // Another restart sends nothing again: the digest and the delivery were each kept once.
  await runUntilKilled('notify', 'delivered')
  expect(hook.requests).toHaveLength(1)
})

it('keeps a digested message through a SIGKILL before its delivery', { timeout: 60_000 }, async () => {
  await runUntilKilled('check-digest', 'digested')
  expect(hook.requests).toHaveLength(0)
  await runUntilKilled('notify', 'delivered')
  expect(hook.requests).toHaveLength(1)
  await runUntilKilled('notify', 'delivered')
  expect(hook.requests).toHaveLength(1)
})
