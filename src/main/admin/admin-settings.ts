/**
 * The admin operations on the settings and the store: reading and changing the settings (which apply at once), a
 * backup now, the backups kept, and a restore from one of them.
 */
import type { AdminApi, SettingsView } from '../../shared/admin-api'
import { AppError } from '../../shared/errors'
import type { Settings } from '../../shared/settings'
import { applyLogLevel } from '../log'
import { readerAddress } from '../server/addresses'
import { readSettings, writeSettings } from '../store/settings'
import { failingChannels } from '../store/notify'
import { targetProblem } from '../notify/send'
import type { Db } from '../store/database'
import type { AdminContext, AdminScope } from './admin-scope'

type SettingsOperations = Pick<AdminApi, 'settings' | 'updateSettings' | 'backupNow' | 'backups' | 'restoreBackup'>

export function settingsOperations(scope: AdminScope): SettingsOperations {
  const { ctx, core, db, storageView } = scope

  async function settingsView(): Promise<SettingsView> {
    return {
      settings: await readSettings(db),
      listening: ctx.listening(),
      readersPage: readersPage(ctx.listening()),
      shell: ctx.shell,
      storage: storageView(),
      logLevelFromEnvironment: Boolean(process.env.MB_LOG_LEVEL),
      ...(await channelsAtRisk(db)),
    }
  }

  return {
    settings: () => settingsView(),
    async updateSettings(input) {
      await moveSyncEndpoint(ctx, await readSettings(db), input)
      await writeSettings(db, input)
      if (input.logLevel) applyLogLevel(core.log, input.logLevel)
      if (input.ownerContact !== undefined) await core.settingsChanged()
      return settingsView()
    },
    async backupNow() {
      try {
        await core.backups.backupNow()
      } catch (error) {
        throw new AppError('storage-unavailable', (error as Error).message, { cause: error })
      }
      return storageView()
    },
    async backups() {
      return (await core.restorer.list()).map(({ verdict, ...b }) => ({
        ...b,
        ok: verdict.ok,
        problems: verdict.problems,
        empty: verdict.empty === true,
      }))
    },
    async restoreBackup({ file }) {
      const report = await core.restorer.restore(file)
      return { ...report, storage: storageView() }
    },
  }
}

/** The channels "Public addresses only" would stop, and how many Readers get Web Push. */
async function channelsAtRisk(db: Db): Promise<Pick<SettingsView, 'localChannels' | 'webPushReaders'>> {
  const channels = await failingChannels(db, 0)
  const localChannels = channels.flatMap((c) => {
    const why = c.kind === 'webpush' ? null : targetProblem(c.target, 'public')
    return why ? [{ reader: c.name, kind: c.kind, url: c.target, why }] : []
  })
  const webPushReaders = new Set(channels.filter((c) => c.kind === 'webpush' && c.reader_id !== null).map((c) => c.reader_id)).size
  return { localChannels, webPushReaders }
}

/** The Readers' page as another device opens it, for the Settings and the token screen (no token in it). */
function readersPage(listening: string): { url: string; reachableFromOtherDevices: boolean } {
  const { url, reachableFromOtherDevices } = readerAddress(listening, '')
  return { url, reachableFromOtherDevices }
}

/**
 * A new bind or port moves the sync endpoint before the setting is written: a port that cannot be had is an
 * error that changes nothing (docs/adr/0077-settings-that-apply-at-once.md).
 */
async function moveSyncEndpoint(ctx: AdminContext, before: Settings, input: Partial<Settings>): Promise<void> {
  const bindChanged = input.syncBind !== undefined && input.syncBind !== before.syncBind
  const portChanged = input.syncPort !== undefined && input.syncPort !== before.syncPort
  if (!ctx.moveSyncEndpoint || (!bindChanged && !portChanged)) return
  try {
    await ctx.moveSyncEndpoint(input.syncBind ?? before.syncBind, portChanged ? input.syncPort : undefined)
  } catch (error) {
    throw new AppError('conflict', (error as Error).message.replace(/^server: /, ''), { cause: error })
  }
}
