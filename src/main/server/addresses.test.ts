import { describe, expect, it } from 'vitest'
import { lanAddress, readerAddress } from './addresses'

const lo = {
  address: '127.0.0.1',
  netmask: '255.0.0.0',
  family: 'IPv4',
  mac: '00:00:00:00:00:00',
  internal: true,
  cidr: '127.0.0.1/8',
} as const
const wifi = { ...lo, address: '192.168.1.20', netmask: '255.255.255.0', internal: false, cidr: '192.168.1.20/24' } as const
const linkLocal = { ...wifi, address: '169.254.3.4', cidr: '169.254.3.4/16' } as const

describe('the address a Reader opens', () => {
  it('an endpoint on every interface is opened at this machine’s LAN address, and the sign-in code rides in the fragment', () => {
    const address = readerAddress('http://0.0.0.0:4711', 'code=co-de_1', { lo: [lo], wlan0: [linkLocal, wifi] })
    expect(address).toEqual({
      url: 'http://192.168.1.20:4711/',
      signInUrl: 'http://192.168.1.20:4711/#code=co-de_1',
      reachableFromOtherDevices: true,
    })
  })

  it('a loopback endpoint gives a loopback address that other devices cannot reach', () => {
    expect(readerAddress('http://127.0.0.1:4711', 't', { lo: [lo], wlan0: [wifi] })).toMatchObject({
      url: 'http://127.0.0.1:4711/',
      reachableFromOtherDevices: false,
    })
  })

  it('every interface but no LAN address: loopback, and said to be unreachable', () => {
    expect(readerAddress('http://0.0.0.0:5000', 't', { lo: [lo] })).toMatchObject({
      url: 'http://127.0.0.1:5000/',
      reachableFromOtherDevices: false,
    })
    expect(lanAddress({ lo: [lo], eth0: [linkLocal] })).toBeUndefined()
  })
  it('no endpoint listening: no address to open, and no sign-in link', () => {
    expect(readerAddress('simulation', 't')).toEqual({ url: 'simulation', signInUrl: '', reachableFromOtherDevices: false })
  })
})
