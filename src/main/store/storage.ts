/**
 * The store's watch over its own file (docs/adr/0045-storage-faults.md). Every statement Kysely runs goes
 * through here, so one place:
 *
 * - names what SQLite's storage errors mean for the owner — disk full, read-only, an I/O error, a damaged
 *   file — and answers them as `storage-unavailable` (HTTP 503), never as a fault of our own;
 * - makes a `ROLLBACK` after SQLite already ended the transaction (it does, on a full disk) a no-op, so the
 *   error the caller sees is the one that happened, not "cannot rollback - no transaction is active";
 * - checks, before a write is acknowledged, that the file at the store's path is still the one the app
 *   opened: a database deleted or replaced under a running app would otherwise take writes into a file
 *   nobody will ever open again (docs/adr/0046-the-file-the-app-opened.md);
 * - reopens a connection that SQLite opened read-only (the file could not be written at start) once the file
 *   is writable, so writes resume by themselves, as they do after a disk is no longer full.
 *
 * It keeps the statement cache too: Kysely prepares every query anew, and parsing the SQL again each time
 * costs more than running it; the store's queries are a small fixed set.
 */
import { accessSync, closeSync, constants, fstatSync, openSync, rmSync, statfsSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import type { SqliteDatabase, SqliteStatement } from 'kysely'
import { AppError } from '../../shared/errors'

/** What keeps the store from taking writes. */
export type StorageFaultKind = 'full' | 'read-only' | 'io' | 'damaged' | 'deleted' | 'moved' | 'replaced'

export interface StorageFault {
  kind: StorageFaultKind
  /** For the owner: `cannot write to <file>: disk full`. */
  message: string
  /** SQLite's code, or what the app saw (`deleted`, `replaced`, `integrity-check`). */
  code: string
}

export interface StorageHealth {
  /** The database file's path. */
  readonly file: string
  /** Why the store cannot take writes now, or null while it takes them. */
  fault(): StorageFault | null
  /**
   * Looks again now: whether the file at the path is still the one the app opened, and whether a connection
   * opened read-only can be opened for writing. Returns the fault that remains. Cheap (a stat or two).
   */
  check(): StorageFault | null
  /** The integrity check found damage: writes are refused from now on (the file is not made worse). */
  markDamaged(detail: string, advice?: string): void
  /** Called whenever the fault changes (a new fault, another kind, or writes taken again). */
  onChange(listener: (fault: StorageFault | null) => void): () => void
}

export const RESTORE_ADVICE = 'restore the newest good backup (Settings → Backups → Restore, or quit and run npm run restore -- --latest)'

/** SQLite's result codes that are about the storage, not about the statement. */
const STORAGE_CODE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|CORRUPT|NOTADB)/

/** Whether an error is the store saying it cannot take the write (HTTP 503 `storage-unavailable`). */
export function isStorageUnavailable(error: unknown): error is AppError {
  return error instanceof AppError && error.code === 'storage-unavailable'
}

/** What the Readers and the window are told: the kind in words, and for a write, that nothing was kept. */
function answerFor(fault: StorageFault, writing = true): AppError {
  const why: Record<StorageFaultKind, string> = {
    full: 'the disk is full',
    'read-only': 'the database is read-only',
    io: 'the disk reported an I/O error',
    damaged: 'the database is damaged',
    deleted: 'the database file was deleted while the app ran',
    moved: 'the database file was moved away while the app ran',
    replaced: 'the database file was replaced while the app ran',
  }
  // A damaged or lost file does not come back by waiting: the Reader is told what it takes.
  const then: Partial<Record<StorageFaultKind, string>> = {
    damaged: 'the owner has to restore a backup first',
    deleted: 'the owner has to restore a backup first',
  }
  if (!writing) return new AppError('storage-unavailable', `the app cannot read its database now: ${why[fault.kind]}`)
  return new AppError(
    'storage-unavailable',
    `the app cannot store writes now: ${why[fault.kind]}; nothing was kept, ${then[fault.kind] ?? 'try again later'}`,
  )
}

export interface GuardedStore {
  /** The database Kysely's SQLite dialect is given. */
  readonly database: SqliteDatabase
  /** The connection in use (it changes when a read-only one is reopened). */
  readonly connection: BetterSqlite3.Database
  readonly health: StorageHealth
  /**
   * Closes the connection, runs `swap` (which may replace the file at the path), and opens the file at the path
   * anew: its identity is the one kept from then on, and any fault (damage too) is over. Called with no statement
   * running (the caller holds Kysely's connection). Should `swap` throw, the file at the path is opened again all
   * the same and the error rethrown.
   */
  swapFile(swap: () => void): void
}

interface Identity {
  dev: number
  ino: number
}

/** What asking the file system can tell of an I/O error. */
type ProbedKind = Extract<StorageFaultKind, 'read-only' | 'full' | 'io'>

/**
 * What the file system's refusal to create the probe file says of an I/O error: a file system mounted read-only,
 * a folder without write permission or an immutable one is read-only; no space or no quota left is a full disk;
 * anything else is an I/O error as it stands.
 */
export function probeFailure(code: string | undefined): ProbedKind {
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return 'read-only'
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'full'
  return 'io'
}

/**
 * Wraps a connection. `reconnect` opens the same file again with the same pragmas; it is used only to replace
 * a connection SQLite opened read-only once the file can be written.
 */
export function guardStore(
  file: string,
  first: BetterSqlite3.Database,
  reconnect: () => BetterSqlite3.Database,
  cacheLimit = 256,
  initial: StorageFault | null = null,
): GuardedStore {
  const guard = new StoreGuard(file, first, reconnect, cacheLimit)
  // A file opened read-only, or not at all, at start (core.ts): the fault is known before any statement runs.
  if (initial) guard.startWith(initial)
  return guard
}

/** What a file that could not be opened for writing at start is, from SQLite's (or the file system's) error. */
export function faultAtOpen(file: string, error: unknown): StorageFault {
  const code = String((error as { code?: unknown }).code)
  const detail = (error as Error).message
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return { kind: 'damaged', code, message: cannot(file, `the database is damaged (${detail}); ${RESTORE_ADVICE}`) }
  // Opened read-only instead: the code the guard knows, so the connection is opened for writing again once it can be.
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT')
    return { kind: 'full', code: 'SQLITE_READONLY', message: cannot(file, 'disk full; the database is open read-only') }
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES' || code === 'EPERM')
    return { kind: 'read-only', code: 'SQLITE_READONLY', message: cannot(file, `read-only (${detail})`) }
  const { kind, words } = probe(file, code)
  return {
    kind,
    code: 'SQLITE_READONLY',
    message: cannot(file, `${kind === 'io' ? `${words}: ${detail}` : words}; the database is open read-only`),
  }
}

/** Every statement through one connection, its faults named, its writes acknowledged only into the file opened. */
class StoreGuard implements GuardedStore {
  readonly database: SqliteDatabase
  readonly health: StorageHealth
  #connection: BetterSqlite3.Database
  #cache = new Map<string, SqliteStatement>()
  readonly #faults = new FaultState()
  readonly #file: OpenedFile
  readonly #reconnect: () => BetterSqlite3.Database
  readonly #cacheLimit: number

  constructor(file: string, first: BetterSqlite3.Database, reconnect: () => BetterSqlite3.Database, cacheLimit: number) {
    this.#connection = first
    this.#reconnect = reconnect
    this.#cacheLimit = cacheLimit
    this.#file = new OpenedFile(file)
    this.database = {
      close: () => {
        this.#connection.close()
        this.#file.release()
      },
      prepare: (sql) => this.#prepare(sql),
    }
    this.health = {
      file,
      fault: () => this.#faults.current,
      check: () => this.#check(),
      markDamaged: (detail, advice = RESTORE_ADVICE) =>
        this.#faults.set({
          kind: 'damaged',
          code: 'integrity-check',
          message: cannot(file, `the database is damaged (${detail}); ${advice}`),
        }),
      onChange: (listener) => this.#faults.onChange(listener),
    }
  }

  get connection(): BetterSqlite3.Database {
    return this.#connection
  }

  startWith(fault: StorageFault): void {
    this.#faults.set(fault)
  }

  swapFile(swap: () => void): void {
    this.#cache = new Map()
    try {
      // The journal into the file, so what was written before the swap is in the file kept aside.
      this.#connection.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // A damaged or read-only file: its journal is kept beside it as it is.
    }
    this.#connection.close()
    this.#file.release()
    try {
      swap()
    } finally {
      this.#connection = this.#reconnect()
      this.#file.adopt()
      this.#faults.reset()
    }
  }

  #check(): StorageFault | null {
    const lost = this.#file.lost()
    if (lost) this.#faults.set(lost)
    else if (isLost(this.#faults.current?.kind)) this.#faults.set(null)
    this.#reopenIfWritable()
    this.#shrinkWalWhenFull()
    return this.#faults.current
  }

  /**
   * On a full disk, the WAL's pages are copied into the database and the WAL truncated (outside any transaction):
   * what it held beyond the database's own pages is free space again, so writes can resume without the owner.
   */
  #shrinkWalWhenFull(): void {
    if (this.#faults.current?.kind !== 'full' || this.#connection.inTransaction || this.#connection.readonly) return
    try {
      this.#connection.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // The checkpoint itself needed space, or a reader holds the WAL: the next look tries again.
    }
  }

  /** A connection SQLite opened read-only is replaced, outside any transaction, once the file is writable. */
  #reopenIfWritable(): void {
    // A connection in memory is never opened read-only: the fault is always a file's.
    if (this.#faults.current?.code !== 'SQLITE_READONLY' || this.#connection.inTransaction) return
    try {
      accessSync(this.#file.path, constants.W_OK)
    } catch {
      return
    }
    this.#faults.reopened = true
    let next: BetterSqlite3.Database
    try {
      next = this.#reconnect()
    } catch {
      return
    }
    const previous = this.#connection
    this.#connection = next
    this.#cache = new Map()
    previous.close()
    // Whether it writes now is known at the next write.
  }

  #prepare(sql: string): SqliteStatement {
    if (this.#faults.current?.code === 'SQLITE_READONLY' && !this.#faults.reopened) this.#reopenIfWritable()
    const cached = this.#cache.get(sql)
    if (cached) return cached
    let statement: BetterSqlite3.Statement
    try {
      statement = this.#connection.prepare(sql)
    } catch (error) {
      throw this.#answer(error, !/^\s*select\b/i.test(sql))
    }
    // Stryker disable next-line Regex,OptionalChaining: the SQL Kysely sends begins with its verb, so the first word is found at the start
    const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? ''
    const guarded: SqliteStatement = {
      reader: statement.reader,
      all: (parameters) => this.#execute(verb, statement, () => statement.all(parameters as unknown[])),
      run: (parameters) => this.#execute(verb, statement, () => statement.run(parameters as unknown[])),
      iterate: (parameters) => this.#execute(verb, statement, () => statement.iterate(parameters as unknown[])),
    }
    if (this.#cache.size >= this.#cacheLimit) this.#cache.delete(this.#cache.keys().next().value!)
    this.#cache.set(sql, guarded)
    return guarded
  }

  /** Runs a prepared statement; `verb` is its first word (`commit`, `rollback`, `insert`…). */
  #execute<T>(verb: string, statement: BetterSqlite3.Statement, run: () => T): T {
    // SQLite rolls a transaction back itself on some errors (a full disk): there is nothing left to roll back.
    if (verb === 'rollback' && !this.#connection.inTransaction) return { changes: 0, lastInsertRowid: 0 } as T
    const writes = !statement.readonly
    if ((writes || verb === 'commit') && this.#faults.refusesWrites()) {
      this.#check()
      if (this.#faults.refusesWrites()) throw answerFor(this.#faults.current!)
    }
    let result: T
    try {
      result = run()
    } catch (error) {
      throw this.#answer(error, writes || verb === 'commit')
    }
    // A write is durable once it is committed: before it is acknowledged, the file must still be the one opened.
    if (verb === 'commit' || (writes && !this.#connection.inTransaction)) {
      const lost = this.#file.lost()
      if (lost) {
        this.#faults.set(lost)
        throw answerFor(lost)
      }
      // Damage stays (the fault state keeps it); any other fault is over once a write is taken.
      this.#faults.set(null)
    }
    return result
  }

  /** What a statement's error is answered with: SQLite's own error, or the storage fault it is (then kept). */
  #answer(error: unknown, writing: boolean): unknown {
    const found = faultOf(error, this.#file)
    if (!found) return error
    this.#faults.set(found)
    return answerFor(found, writing)
  }
}

/** Why the store cannot take writes now, and who hears when that changes. */
class FaultState {
  current: StorageFault | null = null
  /** Whether the connection was reopened since the read-only fault was seen (a write attempt tries once). */
  reopened = false
  readonly #listeners = new Set<(fault: StorageFault | null) => void>()

  set(next: StorageFault | null): void {
    // Damage is kept as first told (the integrity check says the most): nothing clears or replaces it.
    if (this.current?.kind === 'damaged') return
    // The message names the kind (and SQLite's code where it says more): the same message is the same fault.
    if (next?.message === this.current?.message) return
    this.current = next
    this.reopened = false
    for (const listener of this.#listeners) listener(next)
  }

  /** Another file was opened at the path: no fault, whatever it was (damage too). */
  reset(): void {
    this.current = null
    this.reopened = false
    for (const listener of this.#listeners) listener(null)
  }

  onChange(listener: (fault: StorageFault | null) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** A file lost (deleted, moved, replaced) or damaged takes no more writes until it is back or restored. */
  refusesWrites(): boolean {
    return this.current !== null && (isLost(this.current.kind) || this.current.kind === 'damaged')
  }
}

const isLost = (kind: StorageFaultKind | undefined) => kind === 'deleted' || kind === 'moved' || kind === 'replaced'

/**
 * The file the store opened: its identity, and a descriptor of it held only to ask whether it still has a name
 * anywhere (moved) or none (deleted). The descriptor is closed only once SQLite's connection is: closing a
 * descriptor drops the process's POSIX locks on the file.
 */
class OpenedFile {
  readonly path: string
  #identity: Identity | null
  #held: number | null

  constructor(path: string) {
    this.path = path
    this.#identity = identityOf(path)
    this.#held = holdFile(path)
  }

  /** Whether the file at the path is still the one opened; a fault when it is not. */
  lost(): StorageFault | null {
    // A store in memory has no identity to lose.
    if (!this.#identity) return null
    const now = identityOf(this.path)
    if (!now && stillNamed(this.#held))
      return {
        kind: 'moved',
        code: 'moved',
        message: cannot(this.path, 'the file was moved away while the app ran; put it back and writes resume by themselves'),
      }
    if (!now) return { kind: 'deleted', code: 'deleted', message: cannot(this.path, 'the file was deleted while the app ran') }
    if (now.dev !== this.#identity.dev || now.ino !== this.#identity.ino)
      return {
        kind: 'replaced',
        code: 'replaced',
        message: cannot(this.path, 'the file was replaced by another while the app ran; restart the app to open the new one'),
      }
    return null
  }

  /** Lets the descriptor go (the connection is closed). */
  release(): void {
    release(this.#held)
    this.#held = null
  }

  /** The file now at the path is the one opened from now on. */
  adopt(): void {
    this.#identity = identityOf(this.path)
    this.#held = holdFile(this.path)
  }
}

const cannot = (file: string, what: string) => `cannot write to ${file}: ${what}`

/** A storage error of SQLite's as a fault, or null for an error about the statement itself. */
function faultOf(error: unknown, opened: OpenedFile): StorageFault | null {
  const file = opened.path
  // What SQLite throws is an object with a string code; anything else reads as "undefined" and is no fault.
  const code = String((error as { code?: unknown }).code)
  if (!STORAGE_CODE.test(code)) return null
  if (code === 'SQLITE_FULL') return { kind: 'full', code, message: cannot(file, 'disk full') }
  if (code === 'SQLITE_READONLY_DBMOVED')
    return opened.lost() ?? { kind: 'deleted', code, message: cannot(file, 'the file was moved or deleted') }
  if (code.startsWith('SQLITE_READONLY')) return { kind: 'read-only', code, message: cannot(file, 'read-only') }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return { kind: 'damaged', code, message: cannot(file, `the database is damaged; ${RESTORE_ADVICE}`) }
  // An I/O error: say what the file system says, when it says something plainer.
  const { kind, words } = probe(file, code)
  return { kind, code, message: cannot(file, words) }
}

/** Asks the file system, once, what an I/O error was, as a fault's kind and its words. */
function probe(file: string, code: string): { kind: ProbedKind; words: string } {
  const io = { kind: 'io' as const, words: `I/O error (${code})` }
  // Stryker disable next-line ConditionalExpression,StringLiteral: a store in memory has no file, so SQLite reports no I/O error for it
  if (file === ':memory:') return io
  if (fileRefuses(file)) return { kind: 'read-only', words: 'read-only (the file refuses writes: it is immutable or not writable)' }
  const kind = askFolder(dirname(file))
  if (kind === 'read-only') return { kind, words: 'read-only (the file system or the folder refuses writes)' }
  if (kind === 'full') return { kind, words: 'disk full' }
  return io
}

/**
 * Whether the database file itself refuses writes (immutable, `chattr +i`, or not writable) in a folder that
 * takes files. access(2), not open: closing a descriptor of the database would drop SQLite's locks on it.
 */
function fileRefuses(file: string): boolean {
  try {
    accessSync(file, constants.W_OK)
    return false
  } catch (error) {
    return probeFailure((error as { code?: string }).code) === 'read-only'
  }
}

/** What the folder's file system says: no free blocks is a full disk; a file it will not create, read-only. */
function askFolder(dir: string): ProbedKind {
  try {
    if (statfsSync(dir).bavail === 0) return 'full'
  } catch {
    // No answer: see below.
  }
  // access(2) does not see a file system the kernel made read-only after an error; creating a file does.
  const probeFile = join(dir, `.mb-write-probe-${process.pid}`)
  try {
    closeSync(openSync(probeFile, 'wx'))
    rmSync(probeFile, { force: true })
  } catch (error) {
    return probeFailure((error as { code?: string }).code)
  }
  return 'io'
}

function holdFile(file: string): number | null {
  if (file === ':memory:') return null
  try {
    return openSync(file, 'r')
  } catch {
    return null
  }
}

/** Whether the held file still has a name (it was moved) rather than none (it was deleted). */
function stillNamed(fd: number | null): boolean {
  if (fd === null) return false
  try {
    return fstatSync(fd).nlink > 0
  } catch {
    return false
  }
}

function release(fd: number | null): void {
  if (fd === null) return
  try {
    closeSync(fd)
  } catch {
    // Already closed.
  }
}

function identityOf(file: string): Identity | null {
  if (file === ':memory:') return null
  try {
    const s = statSync(file)
    return { dev: s.dev, ino: s.ino }
  } catch {
    return null
  }
}
