/**
 * A port in use says which port, for what, and how to choose another — not a bare EADDRINUSE. The real app
 * against a real listener holding the port.
 */
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from '../app'
import { silentLog } from '../log'
import { tempDir } from '../testing/store'

let holder: Server
let port = 0

beforeAll(async () => {
  holder = createServer()
  await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done))
  port = (holder.address() as { port: number }).port
})
afterAll(() => new Promise<void>((done) => holder.close(() => done())))

describe('a port in use', () => {
  it('the sync endpoint says which port and how to choose another, and the app starts nothing', async () => {
    const dir = tempDir()
    try {
      await expect(startApp({ shell: 'headless', dataDir: dir.dir, port, log: silentLog, sites: [], lanes: false })).rejects.toThrow(
        new RegExp(`^server: port ${port} on 127\\.0\\.0\\.1, for the sync endpoint for Readers, is in use by another program .*--port N`),
      )
      // Nothing was left holding the data directory: a start on a free port works at once.
      const app = await startApp({ shell: 'headless', dataDir: dir.dir, port: 0, log: silentLog, sites: [], lanes: false })
      await app.stop()
    } finally {
      dir.remove()
    }
  })

  it("the owner's window's port names --admin-port", async () => {
    const dir = tempDir()
    try {
      await expect(
        startApp({ shell: 'headless', dataDir: dir.dir, port: 0, log: silentLog, sites: [], lanes: false, adminHttp: { port } }),
      ).rejects.toThrow(/for the owner's window, is in use .*--admin-port N/)
    } finally {
      dir.remove()
    }
  })
})
