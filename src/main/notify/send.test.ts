import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { addressAllowed, MAX_BODY_BYTES, sendTo, targetProblem, TargetRefused, vetHost } from './send'
import { startReceiver, type Receiver } from '../testing/receivers'

describe('which addresses a target may have', () => {
  it.each([
    ['127.0.0.1', false, true],
    ['10.1.2.3', false, true],
    ['192.168.1.20', false, true],
    ['172.16.0.9', false, true],
    ['169.254.169.254', false, true],
    ['100.64.0.1', false, true],
    ['::1', false, true],
    ['fe80::1', false, true],
    ['fd00::1', false, true],
    ['::ffff:127.0.0.1', false, true],
    ['0.0.0.0', false, false],
    ['224.0.0.1', false, false],
    ['255.255.255.255', false, false],
    ['93.184.216.34', true, true],
    ['2606:4700::1111', true, true],
  ])('%s: public %s, local-network %s', (address, publicOk, localOk) => {
    expect(addressAllowed(address, 'public')).toBe(publicOk)
    expect(addressAllowed(address, 'local-network')).toBe(localOk)
  })

  it('refuses bad URLs by their text before any lookup', () => {
    expect(targetProblem('ftp://example.com/x', 'public')).toBe('only web addresses (http or https) can be notified')
    expect(targetProblem('not a url', 'public')).toBe('that is not a web address (one starts with https://)')
    expect(targetProblem('https://user:pw@example.com/', 'public')).toMatch(/a user or password cannot be part of the address/)
    expect(targetProblem('http://localhost:8080/', 'public')).toBe("localhost is this computer's own name, not a public address")
    expect(targetProblem('http://[::1]:8080/', 'public')).toBe("::1 is this computer's own address, not a public one")
    expect(targetProblem('http://192.168.1.50/', 'public')).toBe('192.168.1.50 is an address on your local network, not a public one')
    expect(targetProblem('http://127.0.0.1:8080/', 'local-network')).toBeNull()
    expect(targetProblem('https://ntfy.sh/topic', 'public')).toBeNull()
  })

  it('resolves a name and refuses it when an address it gives is not public', async () => {
    await expect(vetHost('localhost', 'public')).rejects.toBeInstanceOf(TargetRefused)
    await expect(vetHost('localhost', 'local-network')).resolves.toMatchObject({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) })
  })
})

describe('sendTo', () => {
  let receiver: Receiver | undefined
  const servers: Array<{ close(): void }> = []
  afterEach(async () => {
    await receiver?.close()
    for (const s of servers) s.close()
  })

  it('posts to a vetted address, and never to a loopback one under "public"', async () => {
    receiver = await startReceiver('/in')
    await expect(sendTo({ url: receiver.url, headers: {}, body: 'hi' }, 'public')).rejects.toThrow(
      "127.0.0.1 is this computer's own address, not a public one",
    )
    expect(receiver.requests).toHaveLength(0)
    const sent = await sendTo({ url: receiver.url, headers: { 'x-a': '1' }, body: 'hi' }, 'local-network')
    expect(sent.status).toBe(200)
    expect(receiver.requests[0]!.body.toString()).toBe('hi')
  })

  it('does not follow a redirect', async () => {
    receiver = await startReceiver('/target')
    const redirector = createServer((_req, res) => {
      res.writeHead(302, { location: receiver!.url })
      res.end()
    })
    servers.push(redirector)
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/`
    const sent = await sendTo({ url, headers: {}, body: 'x' }, 'local-network')
    expect(sent.status).toBe(302)
    expect(receiver.requests).toHaveLength(0)
  })

  it('refuses a body over the cap, and gives up on a receiver that never answers', async () => {
    receiver = await startReceiver('/in')
    await expect(sendTo({ url: receiver.url, headers: {}, body: 'x'.repeat(MAX_BODY_BYTES + 1) }, 'local-network')).rejects.toThrow(
      /larger than/,
    )
    const silent = createServer(() => undefined)
    servers.push({
      close: () => {
        silent.closeAllConnections()
        silent.close()
      },
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`
    await expect(sendTo({ url, headers: {}, body: 'x' }, 'local-network', 200)).rejects.toThrow(/no answer within/)
  })
})
