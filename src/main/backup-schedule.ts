/**
 * The daily backup (docs/adr/0048-backups.md): a minute after the start, and then whenever the newest backup in
 * `<data>/backups/` is a day old, the core makes one and prunes the rest by retention. "Back up now" (Settings,
 * `backupNow`) makes one at once. Backups never overlap; a stop waits for the one in progress. Every wait is
 * bounded by an hour, so a wall clock corrected by hours never leaves the schedule asleep for long
 * (docs/adr/0011-time-and-the-wall-clock.md).
 */
import type { BackupView } from '../shared/admin-api'
import type { Clock } from './clock'
import type { Log } from './log'
import { backupDatabase, backupRefusal, listBackups, pruneBackups, WRITE_IN_PROGRESS } from './store/backups'
import { AppError } from '../shared/errors'
import type { Store } from './store/database'

export const BACKUP_EVERY_MS = 86_400_000
/** The first look waits this long, so a backup never slows the start. */
export const FIRST_BACKUP_DELAY_MS = 60_000
const LONGEST_WAIT_MS = 3_600_000
/** How many times a copy a transaction ended is made again before the backup fails (the next check tries again). */
const COPY_ATTEMPTS = 20

export interface Backups {
  /** Makes a backup now (after the one in progress, if any). */
  backupNow(): Promise<BackupView>
  /** The newest backup, and why the latest attempt failed (null when it did not). */
  state(): { lastBackup: BackupView | null; backupProblem: string | null }
  /** Settles once no backup is in progress (a restore waits for it). */
  idle(): Promise<void>
  stop(): Promise<void>
}

export interface BackupOptions {
  store: Store
  /** `<data>/backups`. */
  dir: string
  clock: Clock
  log: Log
  nativeBinding?: string
  /** Make the daily backup (default true); "Back up now" works either way. */
  daily?: boolean
}

export function scheduleBackups(options: BackupOptions): Backups {
  const { store, dir, clock, log } = options
  const controller = new AbortController()
  let problem: string | null = null
  let running: Promise<BackupView> = Promise.resolve(null as unknown as BackupView)

  const make = async (why: 'daily' | 'asked'): Promise<BackupView> => {
    const at = clock.now()
    const binding = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}
    const refused = backupRefusal(store.sqlite, store.health.fault()?.kind === 'damaged', dir, binding)
    if (refused) {
      if (problem !== refused) log.error({ why }, `store: backup refused: ${refused}`)
      problem = refused
      throw new AppError('conflict', refused)
    }
    try {
      const made = await copyBetweenWrites(() => backupDatabase(store.sqlite, dir, at, binding))
      const pruned = pruneBackups(dir, at)
      problem = null
      log.info({ file: made.file, bytes: made.bytes, pruned: pruned.length, why }, 'store: backup made')
      return made
    } catch (error) {
      problem = (error as Error).message
      log.error({ err: error, why }, `store: backup failed: ${problem}`)
      throw error
    }
  }

  /**
   * The copy, made when no transaction is open on the store's connection: a transaction that opens during it (a
   * Lane's check, a sync write) ends the copy, and it is made again once the connection is free, a few times.
   */
  const copyBetweenWrites = async <T>(copy: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      await store.db.connection().execute(async () => undefined)
      try {
        return await copy()
      } catch (error) {
        if (attempt >= COPY_ATTEMPTS || !String((error as Error).message).includes(WRITE_IN_PROGRESS)) throw error
      }
    }
  }

  const backup = (why: 'daily' | 'asked'): Promise<BackupView> => {
    // The backup starts once the store's connection is free (docs/adr/0140-…): a transaction in progress (an
    // import's write, which lets the event loop run between its statements) has ended. The connection is not held
    // while the pages are copied — every other query would wait seconds for a large library —; a write that opens
    // during the copy ends it (`backupDatabase`), and the next backup check makes it again.
    const next = running
      .catch(() => undefined)
      .then(() => store.db.connection().execute(async () => undefined))
      .then(() => make(why))
    running = next
    return next
  }

  const loop = (async () => {
    if (options.daily === false || store.file === ':memory:') return
    await clock.sleep(FIRST_BACKUP_DELAY_MS, controller.signal)
    while (!controller.signal.aborted) {
      const newest = listBackups(dir)[0]
      const age = newest ? clock.now() - newest.at : Infinity
      // A newest backup "from the future" is a wall clock set back since: back up now rather than wait for it.
      let wait = BACKUP_EVERY_MS
      if (age >= BACKUP_EVERY_MS || age < 0) {
        await backup('daily').catch(() => undefined)
      } else {
        wait = BACKUP_EVERY_MS - age
      }
      // After a failure, the next try is within the hour.
      await clock.sleep(Math.min(wait, LONGEST_WAIT_MS), controller.signal)
    }
  })()

  return {
    backupNow: () => backup('asked'),
    state: () => ({ lastBackup: listBackups(dir)[0] ?? null, backupProblem: problem }),
    idle: () =>
      running.then(
        () => undefined,
        () => undefined,
      ),
    async stop() {
      controller.abort()
      await loop
      await running.catch(() => undefined)
    },
  }
}
