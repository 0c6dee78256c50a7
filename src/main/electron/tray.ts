/**
 * The tray: the app's icon, a tooltip summarising Lane health, and a menu (Open, each Lane, a new sign-in link
 * when the app serves the owner's window over HTTP, data folder, Quit).
 */
import { Menu, Tray, clipboard, nativeImage } from 'electron'
import type { LaneView, StorageView } from '../../shared/admin-api'
import { trayModel } from './policy/tray'

export interface AppTray {
  update(lanes: readonly LaneView[], now: number, storage?: StorageView): void
  readonly tray: Tray
  destroy(): void
}

export function createAppTray(options: {
  icon: string
  open(): void
  openDataFolder(): void
  quit(): void
  /** A new one-time admin sign-in link (RunningApp.newAdminSignInLink, docs/adr/0127): copied for the browser. */
  newSignInLink?: () => string
}): AppTray {
  const tray = new Tray(nativeImage.createFromPath(options.icon))
  tray.on('click', options.open)
  const update = (lanes: readonly LaneView[], now: number, storage?: StorageView) => {
    const model = trayModel(lanes, now, storage)
    tray.setToolTip(model.tooltip)
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open Manga Bookmark', click: options.open },
        { type: 'separator' },
        ...model.lanes.map((lane) => ({ label: `${lane.attention ? '⚠ ' : ''}${lane.label}`, enabled: false })),
        { type: 'separator' },
        ...(options.newSignInLink
          ? [{ label: 'New sign-in link (copied)', click: () => clipboard.writeText(options.newSignInLink!()) }]
          : []),
        { label: 'Open data folder', click: options.openDataFolder },
        { label: 'Quit', click: options.quit },
      ]),
    )
  }
  update([], Date.now())
  return { update, tray, destroy: () => tray.destroy() }
}
