/**
 * The headless shell (SPEC §2, §8): the same core as the Electron shell, run in plain Node, serving over
 * loopback HTTP. Everything it starts is stopped by `stop()`.
 */
import { join } from 'node:path'
import { systemClock, type Clock } from '../clock'
import type { Log } from '../log'
import { openStore, STORE_FILE } from '../store/database'
import { createHttpServer, listen } from '../server/http'

export interface HeadlessOptions {
  dataDir: string
  port: number
  /** 127.0.0.1 unless the owner opted into a LAN bind. */
  host?: string
  log: Log
  clock?: Clock
}

export interface HeadlessShell {
  readonly dataFile: string
  readonly origin: string
  readonly port: number
  stop(): Promise<void>
}

export async function startHeadlessShell(options: HeadlessOptions): Promise<HeadlessShell> {
  const clock = options.clock ?? systemClock
  const dataFile = join(options.dataDir, STORE_FILE)
  const store = openStore(dataFile, { now: clock.now() })
  if (store.migration.backup) options.log.info({ backup: store.migration.backup }, 'store: copied aside before migrating')
  const app = createHttpServer({ log: options.log })
  let bound
  try {
    bound = await listen(app, options.port, options.host)
  } catch (error) {
    await app.close()
    await store.close()
    throw error
  }
  let stopping: Promise<void> | undefined
  return {
    dataFile,
    origin: bound.origin,
    port: bound.port,
    stop: () =>
      (stopping ??= (async () => {
        await app.close()
        await store.close()
      })()),
  }
}
