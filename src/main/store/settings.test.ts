import { describe, expect, test } from '../testing/fixtures'
import { DEFAULT_SETTINGS } from '../../shared/settings-defaults'
import { readSettings, writeSettings } from './settings'

/** `rows()`: the settings table as stored. */
const it = test.extend(
  'rows',
  ({ store }) =>
    () =>
      store.db.selectFrom('settings').selectAll().orderBy('key').execute(),
)

describe("the owner's settings", () => {
  it('a new database reads the defaults', async ({ store }) => {
    expect(await readSettings(store.db)).toEqual(DEFAULT_SETTINGS)
  })

  it('a setting written is read back, the others keep their defaults', async ({ store, rows }) => {
    const written = await writeSettings(store.db, { syncPort: 5000 })
    expect(written).toEqual({ ...DEFAULT_SETTINGS, syncPort: 5000 })
    expect(await readSettings(store.db)).toEqual(written)
    expect(await rows()).toEqual([{ key: 'syncPort', value: '5000' }])
  })

  it('writing a setting again replaces it', async ({ store, rows }) => {
    await writeSettings(store.db, { syncBind: 'lan', notifications: false })
    await writeSettings(store.db, { syncBind: 'loopback' })
    expect(await readSettings(store.db)).toEqual({ ...DEFAULT_SETTINGS, syncBind: 'loopback', notifications: false })
    expect(await rows()).toEqual([
      { key: 'notifications', value: 'false' },
      { key: 'syncBind', value: '"loopback"' },
    ])
  })

  it('a setting left undefined is not written', async ({ store }) => {
    await writeSettings(store.db, { logLevel: 'debug' })
    await writeSettings(store.db, { logLevel: undefined, startAtLogin: true })
    expect(await readSettings(store.db)).toEqual({ ...DEFAULT_SETTINGS, logLevel: 'debug', startAtLogin: true })
  })

  it('a stored value that no longer parses, or is no longer valid, reads as its default; the valid ones stand', async ({ store }) => {
    await store.db
      .insertInto('settings')
      .values([
        { key: 'syncPort', value: '{not json' },
        { key: 'syncBind', value: '"everywhere"' },
        { key: 'logLevel', value: '"warn"' },
        { key: 'retired', value: '1' },
      ])
      .execute()
    expect(await readSettings(store.db)).toEqual({ ...DEFAULT_SETTINGS, logLevel: 'warn' })
  })
})
