/**
 * The files restores keep aside are pruned like the backups (docs/adr/0089-restore-in-place.md): twelve restores a
 * day apart keep the last 7 and one a week for a month, each with its journal; the newest, just kept, is never pruned.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from '../testing/fixtures'
import { backupDatabase, backupsToKeep } from './backups'
import { openStore, STORE_FILE } from './database'
import { asideName, restoreFile } from './restore'

const DAY = 86_400_000
const START = Date.UTC(2026, 2, 1, 4, 0, 0)

describe('the files restores keep aside', () => {
  it('are pruned like the backups, each with its journal', async ({ dataDir }) => {
    const file = join(dataDir, STORE_FILE)
    const store = openStore(file, { now: 1 })
    const backup = await backupDatabase(store.sqlite, join(dataDir, 'backups'), START)
    await store.close()
    const times: number[] = []
    for (let i = 0; i < 40; i++) {
      const at = START + i * DAY
      // A journal left beside the file restored over, as a crash would leave it: it goes with the file kept.
      writeFileSync(`${file}-wal`, 'journal')
      restoreFile(backup.file, file, at)
      times.push(at)
    }
    const now = times.at(-1)!
    const keep = backupsToKeep(
      times.map((at) => ({ file: asideName(file, at), at })),
      now,
    )
    const asides = readdirSync(dataDir).filter((n) => n.includes('.before-restore-') && !n.endsWith('-wal'))
    expect(asides.map((n) => join(dataDir, n)).sort()).toEqual([...keep].sort())
    expect(asides.length).toBeLessThan(15)
    expect(existsSync(asideName(file, now))).toBe(true)
    for (const kept of keep) expect(existsSync(`${kept}-wal`)).toBe(true)
    expect(readdirSync(dataDir).filter((n) => n.endsWith('-wal')).length).toBe(keep.size)
  })
})
