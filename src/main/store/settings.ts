/** The `settings` aggregate: the owner's settings, each key's value stored as JSON. */
import { SettingsSchema, type Settings } from '../../shared/settings'
import { DEFAULT_SETTINGS } from '../../shared/settings-defaults'
import type { Db } from './database'

export async function readSettings(db: Db): Promise<Settings> {
  const rows = await db.selectFrom('settings').selectAll().execute()
  const stored: Record<string, unknown> = {}
  for (const row of rows) {
    try {
      stored[row.key] = JSON.parse(row.value)
    } catch {
      // A value that no longer parses falls back to its default.
    }
  }
  const merged = { ...DEFAULT_SETTINGS }
  for (const key of Object.keys(DEFAULT_SETTINGS) as Array<keyof Settings>) {
    const candidate = SettingsSchema.shape[key].safeParse(stored[key])
    if (candidate.success) (merged as Record<string, unknown>)[key] = candidate.data
  }
  return merged
}

export async function writeSettings(db: Db, change: Partial<Settings>): Promise<Settings> {
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) continue
    await db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
      .execute()
  }
  return readSettings(db)
}
