/** The messages between the import reader and its worker thread (import-reader.ts, import-worker.ts): plain data. */
import type { ParsedLibrary } from './entries'

/** A file to read: its bytes (transferred, not copied) and its name. */
export interface ImportReadJob {
  bytes: Uint8Array
  fileName: string
}

export type ImportReadMessage =
  | { ready: true }
  | { progress: [done: number, total: number] }
  | { ok: true; parsed: ParsedLibrary }
  /** `import`: the file is not one an import reads (an ImportError, its message for the owner); `failed`: any other error. */
  | { ok: false; kind: 'import' | 'failed'; message: string }
