/**
 * `glob`, loaded from node_modules when first called: the main build gives this module to `@fastify/static` in the
 * package's place (electron.vite.config.ts), which calls it only for `wildcard: false` — never here — so a start no
 * longer loads its 140 kB (docs/adr/0229-a-start-that-loads-what-it-answers-with.md).
 */
import { createRequire } from 'node:module'

type Glob = (pattern: string | string[], options?: object) => Promise<string[]>

export function glob(pattern: string | string[], options?: object): Promise<string[]> {
  const real = createRequire(import.meta.url)('glob') as { glob: Glob }
  return real.glob(pattern, options)
}
