/**
 * The integrity check at start (docs/adr/0046-the-file-the-app-opened.md): SQLite's `quick_check` — every page
 * of every b-tree read and checked, no index compared to its table — run in a worker thread on a read-only
 * connection of its own, so it never blocks the app's one connection and a large file cannot hold the start:
 * the core waits for the verdict a moment, then carries on, and applies the verdict whenever it comes.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

export interface IntegrityVerdict {
  /** True when `quick_check` said `ok`. */
  ok: boolean
  /** What it found (at most a few lines), or why it could not run. */
  problems: string[]
  /** How long the check took. */
  ms: number
}

export interface IntegrityCheck {
  /** Settles with the verdict; never rejects (a check that cannot run says so in `problems`, with ok true). */
  readonly verdict: Promise<IntegrityVerdict>
  /** Stops a check still running (at the app's stop). */
  cancel(): Promise<void>
}

/**
 * The page cache, in KiB, of a connection that reads each page once (a `quick_check`): the cache would only hold
 * memory (better-sqlite3's default 16 MB filled; docs/adr/0240-a-page-cache-the-size-sqlite-chose.md).
 */
export const ONE_PASS_CACHE_KIB = 512

/** How many problems `quick_check` reports before it stops looking. */
const MAX_PROBLEMS = 5

// CommonJS run by the worker: better-sqlite3 is required by the path the main thread resolved, so the worker
// finds the same module (and the same native binding) wherever the app is installed.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.module)
const started = Date.now()
let db
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) })
  db.pragma('cache_size = -${ONE_PASS_CACHE_KIB}')
  const rows = db.pragma(workerData.pragma + '(${MAX_PROBLEMS})').map((row) => String(Object.values(row)[0]))
  parentPort.postMessage({ rows, ms: Date.now() - started })
} catch (error) {
  parentPort.postMessage({ error: String(error && error.message), code: error && error.code, ms: Date.now() - started })
} finally {
  if (db) db.close()
}
`

/**
 * Starts `quick_check` of `file` in a worker thread. `module` is the better-sqlite3 the worker loads (default: the
 * one this thread resolves); `nativeBinding` its compiled part, where the app is packaged.
 */
export function startIntegrityCheck(
  file: string,
  options: { nativeBinding?: string; module?: string; pragma?: 'quick_check' | 'integrity_check' } = {},
): IntegrityCheck {
  const module = options.module ?? createRequire(import.meta.url).resolve('better-sqlite3')
  const pragma = options.pragma ?? 'quick_check'
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, module, nativeBinding: options.nativeBinding, pragma } })
  const verdict = new Promise<IntegrityVerdict>((resolve) => {
    worker.once('message', (message: { rows?: string[]; error?: string; code?: string; ms: number }) => {
      if (message.rows) {
        // quick_check says `ok` alone, or lists what it found.
        const ok = message.rows[0] === 'ok'
        resolve({
          ok,
          problems: ok ? [] : message.rows.map((r) => r.replace(/^\*\*\* in database main \*\*\*\n/, '')),
          ms: message.ms,
        })
      } else {
        // A file SQLite cannot even read is damaged too; anything else (no worker support) is no verdict.
        const damaged = /^SQLITE_(CORRUPT|NOTADB)/.test(String(message.code))
        resolve({ ok: !damaged, problems: [`${damaged ? pragma : `${pragma} could not run`}: ${message.error}`], ms: message.ms })
      }
    })
    worker.once('error', (error) => resolve({ ok: true, problems: [`quick_check could not run: ${error.message}`], ms: 0 }))
    worker.once('exit', () => resolve({ ok: true, problems: ['quick_check was stopped'], ms: 0 }))
  })
  return {
    verdict,
    async cancel() {
      await worker.terminate()
    },
  }
}
