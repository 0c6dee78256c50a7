/**
 * Starting one of the app's worker threads from wherever this code runs: the built app (an entry of its own,
 * `out/main/<name>.js`, beside the entry or chunk the caller was bundled into), or the sources (tests and `tsx`
 * tools), where the TypeScript file is loaded through tsx (docs/adr/0040, docs/adr/0080).
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker, type ResourceLimits } from 'node:worker_threads'

/**
 * A worker thread from the first of `built` that exists, else from `source` through tsx. `built` and `source`
 * are URLs made by the caller against its own `import.meta.url`.
 */
export function spawnWorkerThread(built: URL[], source: URL, resourceLimits: ResourceLimits, workerData?: unknown): Worker {
  const file = built.find((url) => existsSync(fileURLToPath(url)))
  if (file) return new Worker(file, { resourceLimits, workerData })
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json')
  const tsx = pathToFileURL(join(dirname(tsxPackage), 'dist/esm/api/index.mjs')).href
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source.href)}) })`
  return new Worker(bootstrap, { eval: true, resourceLimits, workerData })
}
