/**
 * Import and export through the headless admin transport: the file goes as base64 in the JSON body, the one
 * method that carries a file takes bodies up to IMPORT_RPC_BODY_LIMIT and every other method keeps 64 KiB,
 * and a body is refused by the session check before it is read.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ExportDocument } from '../../shared/export-format'
import type { ImportJobView } from '../../shared/admin-api'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { startHeadlessShell, type HeadlessShell } from '../headless/shell'
import { silentLog } from '../log'
import { FakeClock } from '../testing/clock'
import { netscapeBookmarks } from '../testing/library-files'
import { tempDir } from '../testing/store'
import { adminSessionCookie } from '../testing/admin-session'
import { IMPORT_RPC_BODY_LIMIT } from './admin-http'

let shell: HeadlessShell
let fixture: FixtureSite
let dir: { dir: string; remove(): void }
const clock = new FakeClock()
const TOKEN = 'test-admin-token-0123456789'
let cookie = ''

beforeAll(async () => {
  dir = tempDir()
  fixture = await startFixtureSite({ now: () => clock.now() })
  shell = await startHeadlessShell({
    dataDir: dir.dir,
    port: 0,
    log: silentLog,
    clock,
    sites: fixtureSites(fixture.host),
    lanes: false,
    adminToken: TOKEN,
  })
  cookie = await adminSessionCookie(shell.adminPort, TOKEN)
})
afterAll(async () => {
  await shell.stop()
  await fixture.close()
  dir.remove()
})

function post(method: string, body: string | null, options: { session?: boolean; contentLength?: number } = {}) {
  const host = `127.0.0.1:${shell.adminPort}`
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: shell.adminPort,
        method: 'POST',
        path: `/admin/rpc/${method}`,
        headers: {
          host,
          origin: `http://${host}`,
          'content-type': 'application/json',
          ...(options.session === false ? {} : { cookie }),
          ...(options.contentLength !== undefined ? { 'content-length': String(options.contentLength) } : {}),
        },
      },
      (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text += c.toString()))
        res.on('end', () => {
          // A request whose body was never sent would hold its connection (and the server's close) open.
          req.destroy()
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null })
        })
      },
    )
    // A refusal may close the connection before a large body is sent: that is the point.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)))
    if (body === null) req.flushHeaders()
    else req.end(body)
  })
}

async function until(jobId: string, phase: ImportJobView['phase']): Promise<ImportJobView> {
  return vi.waitFor(
    async () => {
      const job = (await post('importJob', JSON.stringify({ jobId }))).json.value as ImportJobView
      expect(job.phase).toBe(phase)
      return job
    },
    { timeout: 10_000, interval: 10 },
  )
}

describe('import through the admin RPC', () => {
  it('a 1 MiB bookmarks file goes as base64, is previewed, confirmed and written — and no request reaches the Site', async () => {
    const readerId = (await post('addReader', JSON.stringify({ name: 'Aiko' }))).json.value.reader.id as number
    const links = Array.from({ length: 11_000 }, (_, i) => ({ title: `Series ${i}`, url: `${fixture.origin}/madara/manga/s-${i}/` }))
    const file = Buffer.from(netscapeBookmarks(links))
    expect(file.length).toBeGreaterThan(1024 * 1024)
    const started = await post(
      'startImport',
      JSON.stringify({ readerId, file: { fileName: 'bookmarks.html', base64: file.toString('base64') } }),
    )
    expect(started.status).toBe(200)
    const previewed = await until(started.json.value.id, 'previewed')
    expect(previewed.preview!.totals).toMatchObject({ add: 11_000, newSeries: 11_000, skipped: 0 })

    const confirmed = await post('confirmImport', JSON.stringify({ jobId: started.json.value.id }))
    expect(confirmed.json.value.phase).toBe('writing')
    const done = await until(started.json.value.id, 'done')
    expect(done.result).toMatchObject({ bookmarksAdded: 11_000, seriesAdded: 11_000 })
    expect(fixture.hits).toEqual([])

    const doc = (await post('exportLibrary', '{}')).json.value as ExportDocument
    expect(doc.series).toHaveLength(11_000)
    expect(doc.readers[0]).toMatchObject({ name: 'Aiko' })
  })

  it('every other method keeps the 64 KiB body limit', async () => {
    const r = await post('addReader', JSON.stringify({ name: 'x'.repeat(70 * 1024) }))
    expect(r.status).toBe(413)
  })

  it('a body over the import limit is refused by its Content-Length, with what an import reads', async () => {
    const r = await post('startImport', null, { contentLength: IMPORT_RPC_BODY_LIMIT + 1 })
    expect(r).toEqual({
      status: 413,
      json: { error: { code: 'too-large', message: 'the file is larger than 64 MiB, the most an import reads' } },
    })
  })

  it('without a session a large body is refused before it is read', async () => {
    const r = await post('startImport', null, { session: false, contentLength: 50 * 1024 * 1024 })
    expect(r.status).toBe(401)
  })

  it('malformed JSON sent to startImport gets the usual error answer', async () => {
    const r = await post('startImport', '{"file": ')
    expect(r).toEqual({ status: 400, json: { error: { code: 'malformed-json', message: expect.any(String) } } })
  })

  it('a file given both as text and as base64, or neither, is refused', async () => {
    const both = await post('startImport', JSON.stringify({ file: { fileName: 'a.txt', text: 'x', base64: 'eA==' } }))
    expect(both.status).toBe(422)
    expect(both.json.error.message).toMatch(/give the file as text or as base64/)
    const neither = await post('startImport', JSON.stringify({ file: { fileName: 'a.txt' } }))
    expect(neither.status).toBe(422)
    expect(neither.json.error.message).toMatch(/give the file as text or as base64/)
  })
})
