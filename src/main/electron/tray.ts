/** The tray: the app's icon, a tooltip summarising Lane health, and a menu (Open, each Lane, data folder, Quit). */
import { Menu, Tray, nativeImage } from 'electron'
import type { LaneView, StorageView } from '../../shared/admin-api'
import { trayModel } from './policy/tray'

export interface AppTray {
  update(lanes: readonly LaneView[], now: number, storage?: StorageView): void
  readonly tray: Tray
  destroy(): void
}

export function createAppTray(options: { icon: string; open(): void; openDataFolder(): void; quit(): void }): AppTray {
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
        { label: 'Open data folder', click: options.openDataFolder },
        { label: 'Quit', click: options.quit },
      ]),
    )
  }
  update([], Date.now())
  return { update, tray, destroy: () => tray.destroy() }
}
