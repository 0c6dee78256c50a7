/**
 * The Readers' page's service worker, versioned by the build (docs/adr/0099-a-service-worker-cache-per-build.md).
 * Its cache name carries a hash of the worker's own source and of the build's file names (hashed by content), so
 * a new build is a worker the browser installs anew, with a cache of its own; its `activate` deletes the others.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Plugin } from 'vite'

/** Where the worker's source names its cache version; the build replaces it. */
export const CACHE_VERSION_PLACEHOLDER = '__MB_CACHE_VERSION__'

/** The version of a worker over a build: the same source and files give the same version, any change another. */
export function cacheVersion(workerSource: string, fileNames: readonly string[]): string {
  const hash = createHash('sha256').update(workerSource)
  for (const name of [...fileNames].sort()) hash.update(`\0${name}`)
  return hash.digest('hex').slice(0, 12)
}

/** The worker's source with its cache version filled in. */
export function versionedWorker(workerSource: string, fileNames: readonly string[]): string {
  if (!workerSource.includes(CACHE_VERSION_PLACEHOLDER)) {
    throw new Error(`the service worker names no ${CACHE_VERSION_PLACEHOLDER}: its cache could never change`)
  }
  return workerSource.replaceAll(CACHE_VERSION_PLACEHOLDER, cacheVersion(workerSource, fileNames))
}

/**
 * Emits the worker at the root of the build as `sw.js` (its scope must be the whole page), versioned over every
 * other file of the renderer's bundle. The dev server serves it too, at version `dev`.
 */
export function serviceWorker(sourcePath: string): Plugin {
  const source = () => readFileSync(sourcePath, 'utf8')
  return {
    name: 'manga-bookmark:service-worker',
    configureServer(server) {
      server.middlewares.use('/sw.js', (_request, response) => {
        response.setHeader('content-type', 'application/javascript; charset=utf-8')
        response.end(source().replaceAll(CACHE_VERSION_PLACEHOLDER, 'dev'))
      })
    },
    generateBundle(_options, bundle) {
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: versionedWorker(source(), Object.keys(bundle)) })
    },
  }
}
