/** The build's stand-in for ip-address (electron.vite.config.ts) makes the package's own `Address6`. */
import { Address6 as Real } from 'ip-address'
import { expect, it } from 'vitest'
import { Address6 } from './ip-address-on-first-use'

it('answers what the package answers, as @fastify/rate-limit asks it', () => {
  const mapped = new Address6('::ffff:192.0.2.1') as Real
  expect(mapped).toBeInstanceOf(Real)
  expect(mapped.isMapped4()).toBe(true)
  expect(mapped.to4().correctForm()).toBe('192.0.2.1')
  const subnet = new Address6('2001:db8:1:2:3:4:5:6/64') as Real
  expect(subnet.startAddress().correctForm()).toBe(new Real('2001:db8:1:2:3:4:5:6/64').startAddress().correctForm())
  expect(subnet.startAddress().correctForm()).toBe('2001:db8:1:2::')
})
