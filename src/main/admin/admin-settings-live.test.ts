/**
 * Settings apply at once (docs/adr/0077-settings-that-apply-at-once.md): the sync endpoint moves to the local
 * network, or to another port, without a restart; a port that cannot be had is an error that changes nothing.
 * Real HTTP on loopback (the LAN address is only named, never sent to).
 */
import { createServer, type Server } from 'node:net'
import { startHeadlessShell, type HeadlessShell } from '../headless/shell'
import { silentLog } from '../log'
import { lanAddress } from '../server/addresses'
import { describe, expect, it, type Defer } from '../testing/fixtures'

/** A quiet headless shell on `dataDir`, stopped after the test. */
async function started({ dataDir, defer }: { dataDir: string; defer: Defer }): Promise<HeadlessShell> {
  const shell = await startHeadlessShell({ dataDir, port: 0, log: silentLog, lanes: false, adminPort: 0 })
  defer(() => shell.stop())
  return shell
}

const health = (port: number) => fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.status)

describe('the sync endpoint in Settings', () => {
  it('"the local network too" applies at once: it listens on every interface, same port, and names the LAN address', async ({
    defer,
    dataDir,
  }) => {
    const shell = await started({ dataDir, defer })
    const before = await shell.api.settings()
    expect(before.listening).toBe(`http://127.0.0.1:${shell.port}`)
    expect(before.readersPage.reachableFromOtherDevices).toBe(false)

    const after = await shell.api.updateSettings({ syncBind: 'lan' })
    expect(after.settings.syncBind).toBe('lan')
    expect(after.listening).toBe(`http://0.0.0.0:${shell.port}`)
    const lan = lanAddress()
    if (lan) expect(after.readersPage).toEqual({ url: `http://${lan}:${shell.port}/`, reachableFromOtherDevices: true })
    // Still answering here (loopback is one of every interface), with no restart.
    expect(await health(shell.port)).toBe(200)

    const back = await shell.api.updateSettings({ syncBind: 'loopback' })
    expect(back.listening).toBe(`http://127.0.0.1:${shell.port}`)
    expect(await health(shell.port)).toBe(200)
  })

  it('a new port applies at once; a port in use is refused, and the endpoint and the setting stay as they were', async ({
    defer,
    dataDir,
  }) => {
    const shell = await started({ dataDir, defer })
    const holder: Server = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    defer(() => new Promise((resolve) => holder.close(resolve)))
    const taken = (holder.address() as { port: number }).port

    const refused = await shell.admin.call('updateSettings', { syncPort: taken })
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining(`port ${taken}`) } })
    expect((await shell.api.settings()).settings.syncPort).toBe(4711)
    expect(await health(shell.port)).toBe(200)

    // A free port: hold one, let it go, move there.
    const probe: Server = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const free = (probe.address() as { port: number }).port
    await new Promise((resolve) => probe.close(resolve))
    const moved = await shell.api.updateSettings({ syncPort: free })
    expect(moved.listening).toBe(`http://127.0.0.1:${free}`)
    expect(await health(free)).toBe(200)
    await expect(health(shell.port)).rejects.toThrow()
  })
})
