/**
 * The names of the admin contract's methods, with no dependencies, for the preload and the renderer (which
 * build their proxies from it). `admin-api.ts` checks that its schemas cover exactly these.
 */
export const ADMIN_METHODS = [
  'overview',
  'listSeries',
  'seriesDetail',
  'updates',
  'lanes',
  'readers',
  'settings',
  'forceSeriesPoll',
  'pauseLane',
  'resumeLane',
  'acceptSiteMove',
  'dismissSiteMove',
  'finishSeries',
  'unfinishSeries',
  'setSeriesUrl',
  'addBookmark',
  'removeBookmark',
  'addReader',
  'rotateReaderToken',
  'addReaderDevice',
  'endReaderDevice',
  'removeReader',
  'updateSettings',
  'startImport',
  'importJob',
  'mapImportSource',
  'confirmImport',
  'cancelImport',
  'exportLibrary',
  'proposeSite',
  'addSite',
  'backupNow',
  'backups',
  'restoreBackup',
  'notifications',
  'setNotificationChannels',
  'testNotifications',
  'searchSites',
  'searchSite',
  'foundAgain',
  'acceptFoundAgain',
  'dismissFoundAgain',
] as const

export type AdminMethodName = (typeof ADMIN_METHODS)[number]

/** The IPC channel of a method (Electron shell). */
export const adminChannel = (method: AdminMethodName) => `admin:${method}`
