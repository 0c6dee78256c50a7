/**
 * Where a Reader opens the Readers' page (docs/adr/0057-sign-in-by-scanning.md): the sync endpoint's address as
 * another device on the network reaches it — this machine's LAN address when the endpoint listens on every
 * interface — and the same address with a one-time sign-in code in its fragment (docs/adr/0087-sign-in-links-that-end.md),
 * which the page reads and exchanges, and the browser never sends.
 */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os'
import type { ReaderAddressView } from '../../shared/admin-api'

type Interfaces = Record<string, NetworkInterfaceInfo[] | undefined>

/** The first address of this machine another device can reach (IPv4, not loopback, not link-local), if any. */
export function lanAddress(interfaces: Interfaces = networkInterfaces()): string | undefined {
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) {
      if (info.family === 'IPv4' && !info.internal && !info.address.startsWith('169.254.')) return info.address
    }
  }
  return undefined
}

/**
 * The Readers' page address for an endpoint listening at `listening` (`http://host:port`), with `fragment`
 * (`code=…`) in the sign-in link's fragment.
 */
export function readerAddress(listening: string, fragment: string, interfaces?: Interfaces): ReaderAddressView {
  let bound: URL
  try {
    bound = new URL(listening)
  } catch {
    // No endpoint listening (a core run without its HTTP server): nothing another device could open.
    return { url: listening, signInUrl: '', reachableFromOtherDevices: false }
  }
  const everywhere = bound.hostname === '0.0.0.0' || bound.hostname === '[::]'
  const lan = everywhere ? lanAddress(interfaces) : undefined
  const loopback = bound.hostname.startsWith('127.') || bound.hostname === 'localhost' || bound.hostname === '[::1]'
  const host = lan ?? (everywhere ? '127.0.0.1' : bound.hostname)
  const url = `http://${host}:${bound.port}/`
  return {
    url,
    signInUrl: `${url}#${fragment}`,
    reachableFromOtherDevices: lan !== undefined || (!everywhere && !loopback),
  }
}
