/**
 * The pin gate is a listener on loopback like the app's HTTP ones (docs/adr/0041): idle connections from
 * another local user are capped, so they cannot take every file descriptor of the app. Real sockets.
 */
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_GATE_CONNECTIONS, startPinGate, type PinGate } from './pin-gate'

let gate: PinGate | undefined
const sockets: Array<Socket & { gone?: boolean }> = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await gate?.close()
})

function open(port: number): Promise<Socket & { gone?: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }) as Socket & { gone?: boolean }
    sockets.push(socket)
    socket.on('close', () => (socket.gone = true))
    socket.on('error', () => undefined)
    socket.once('connect', () => resolve(socket))
    socket.once('error', reject)
  })
}

describe('the pin gate under many idle connections', () => {
  it(`holds at most ${MAX_GATE_CONNECTIONS} at once and still answers a SOCKS greeting`, async () => {
    gate = await startPinGate()
    const port = Number(new URL(gate.proxyServer).port)
    for (let i = 0; i < MAX_GATE_CONNECTIONS + 200; i++) await open(port)
    await new Promise((r) => setTimeout(r, 200))
    expect(sockets.filter((s) => !s.gone).length).toBeLessThanOrEqual(MAX_GATE_CONNECTIONS)

    // Once the idle ones go, a new client is greeted.
    for (const socket of sockets.splice(0)) socket.destroy()
    await new Promise((r) => setTimeout(r, 100))
    const client = await open(port)
    const answer = new Promise<Buffer>((resolve) => client.once('data', resolve))
    client.write(Buffer.from([5, 1, 0]))
    expect([...(await answer)]).toEqual([5, 0])
  })
})
