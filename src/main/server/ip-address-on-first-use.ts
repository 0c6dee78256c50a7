/**
 * ip-address's `Address6`, loaded from node_modules when one is first made: the main build gives this module to
 * `@fastify/rate-limit` in the package's place (electron.vite.config.ts). The plugin makes one only in its default key,
 * and the sync endpoint gives its own (sync/api.ts), so a start no longer loads its 90 kB
 * (docs/adr/0229-a-start-that-loads-what-it-answers-with.md).
 */
import { createRequire } from 'node:module'

type Address6Class = new (address: string) => object

/** Called with `new`, it answers the package's own `Address6`. */
export const Address6 = function Address6(address: string): object {
  const real = createRequire(import.meta.url)('ip-address') as { Address6: Address6Class }
  return new real.Address6(address)
} as unknown as Address6Class
