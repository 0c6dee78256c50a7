/**
 * Removes, one at a time, each wiring line of the Electron shell (src/main/electron/) and runs the stand-in test
 * that covers it: every removal must make that test fail (docs/adr/0082-the-electron-stand-in.md). Each file is
 * restored after its run, and on Ctrl-C. About 15 minutes: `npx tsx scripts/electron-wiring-check.ts [INDEX…]`.
 * Exits 1 when a removal goes unnoticed, or when a line is no longer found as written here (update the list).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const SHELL = 'src/main/electron/electron-shell.test.ts'
const NATIVE = 'src/main/electron/native-binding.test.ts'
const TESTS = { shell: SHELL, native: NATIVE } as const

/** [file in src/main/electron/, the line as written, what replaces it, the test file, the test-name filter] */
const REMOVALS: Array<[string, string, string, keyof typeof TESTS, string]> = [
  ['index.ts', "  app.on('second-instance', () => ownerWindow?.show())\n", '', 'shell', 'second instance'],
  [
    'index.ts',
    'if (!app.requestSingleInstanceLock()) {\n  app.quit()\n',
    'if (!app.requestSingleInstanceLock()) {\n',
    'shell',
    'second instance',
  ],
  [
    'index.ts',
    '  unregisterIpc = registerAdminIpc(',
    '  unregisterIpc = ((..._a: unknown[]) => () => undefined)(',
    'shell',
    'every admin method',
  ],
  ['index.ts', "  powerMonitor.on('suspend', () => void power.suspend())\n", '', 'shell', 'sleep and wake'],
  ['index.ts', "  powerMonitor.on('resume', () => void power.resume())\n", '', 'shell', 'sleep and wake'],
  ['index.ts', '    nativeBinding,\n', '', 'native', 'native'],
  ['index.ts', '  if (!nativeBinding) {', '  if (!nativeBinding && Math.random() > 2) {', 'native', 'native'],
  ['index.ts', '    browser: () => electronLauncher(),\n', '', 'shell', 'browser fetcher'],
  ['index.ts', '    onNewChapters: (_site, chapters) => void notify(chapters),\n', '', 'shell', 'New Chapter notifications'],
  ['index.ts', '    open: () => ownerWindow?.show(),', '    open: () => undefined,', 'shell', 'closing the window'],
  ['index.ts', '    quit: () => app.quit(),', '    quit: () => undefined,', 'shell', 'quit drains'],
  [
    'index.ts',
    '{ markup: rendersMarkup(process.platform) }',
    '{ markup: false && rendersMarkup(process.platform) }',
    'shell',
    'New Chapter notifications',
  ],
  ['index.ts', '  if (!(await running.api.settings()).settings.notifications) return\n', '', 'shell', 'New Chapter notifications'],
  ['index.ts', "  notification.on('click', () => ownerWindow?.openSeries(notice.open))\n", '', 'shell', 'New Chapter notifications'],
  ['index.ts', '  notification.show()\n', '', 'shell', 'New Chapter notifications'],
  ['index.ts', '  quitting = true\n  event.preventDefault()\n', '  quitting = true\n', 'shell', 'quit drains'],
  ['index.ts', '  unregisterIpc?.()\n', '', 'shell', 'quit drains'],
  ['index.ts', '    tray?.destroy()\n', '', 'shell', 'quit drains'],
  ['index.ts', '    app.exit(0)\n', '', 'shell', 'quit drains'],
  ['index.ts', 'const QUIT_WITHIN_MS = 5_000', 'const QUIT_WITHIN_MS = 60_000', 'shell', 'quit drains'],
  ['window.ts', '    event.preventDefault()\n    window.hide()\n', '    window.hide()\n', 'shell', 'closing the window'],
  ['window.ts', '    event.preventDefault()\n    window.hide()\n', '    event.preventDefault()\n', 'shell', 'closing the window'],
  ['window.ts', '  session.setPermissionRequestHandler(', '  void (', 'shell', 'closing the window'],
  ['window.ts', '  session.setPermissionCheckHandler(', '  void (', 'shell', 'closing the window'],
  ['window.ts', '  session.setDevicePermissionHandler(() => false)\n', '', 'shell', 'closing the window'],
  ['window.ts', '  window.webContents.setWindowOpenHandler(', '  void (', 'shell', 'closing the window'],
  [
    'window.ts',
    "  window.webContents.on('will-navigate', (event) => {",
    "  window.webContents.on('did-navigate', (event) => {",
    'shell',
    'closing the window',
  ],
  ['window.ts', "  window.once('ready-to-show', () => window.show())\n", '', 'shell', 'closing the window'],
  ['window.ts', '      window.focus()\n', '', 'shell', 'second instance'],
  ['window.ts', "      window.webContents.send('open-series', key)\n", '', 'shell', 'New Chapter notifications'],
  ['ipc.ts', '    ipcMain.handle(adminChannel(method),', '    void (adminChannel(method),', 'shell', 'every admin method'],
  ['ipc.ts', 'event.sender !== window || ', '', 'shell', 'another frame'],
  ['ipc.ts', 'event.senderFrame !== window.mainFrame || ', '', 'shell', 'another frame'],
  ['ipc.ts', " || !event.senderFrame?.url.startsWith('file:')", '', 'shell', 'another frame'],
  ['ipc.ts', '    for (const method of ADMIN_METHODS) ipcMain.removeHandler(adminChannel(method))\n', '', 'shell', 'quit drains'],
  ['tray.ts', "  tray.on('click', options.open)\n", '', 'shell', 'closing the window'],
  ['tray.ts', '    tray.setToolTip(model.tooltip)\n', '', 'shell', 'closing the window'],
  ['tray.ts', "        { label: 'Quit', click: options.quit },\n", '', 'shell', 'quit drains'],
  [
    'tray.ts',
    '  return { update, tray, destroy: () => tray.destroy() }',
    '  return { update, tray, destroy: () => undefined }',
    'shell',
    'quit drains',
  ],
  ['browser-session.ts', '      await partition.setProxy(', '      void (', 'shell', 'browser fetcher'],
  ['browser-session.ts', "proxyBypassRules: '<-loopback>' }", "proxyBypassRules: '' }", 'shell', 'browser fetcher'],
  ['browser-session.ts', '      partition.setPermissionRequestHandler(', '      void (', 'shell', 'browser fetcher'],
  ['browser-session.ts', '      partition.setPermissionCheckHandler(() => false)\n', '', 'shell', 'browser fetcher'],
  ['browser-session.ts', "      partition.on('will-download', (event) => event.preventDefault())\n", '', 'shell', 'browser fetcher'],
  ['browser-session.ts', '      partition.setUserAgent(', '      void (', 'shell', 'browser fetcher'],
  ['browser-session.ts', '      window.webContents.setAudioMuted(true)\n', '', 'shell', 'browser fetcher'],
  ['browser-session.ts', "      window.webContents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp')\n", '', 'shell', 'browser fetcher'],
  [
    'browser-session.ts',
    "  contents.on('will-redirect', (event) => {",
    "  contents.on('did-redirect-navigation', (event) => {",
    'shell',
    'browser fetcher',
  ],
  [
    'browser-session.ts',
    '  contents.session.webRequest.onBeforeRequest(',
    '  void ((_f: unknown) => undefined)(',
    'shell',
    'browser fetcher',
  ],
  ['index.ts', "      if (method === 'updateSettings' && ok) void applySettings()\n", '', 'shell', 'login item'],
  ['index.ts', '  if (app.isPackaged) app.setLoginItemSettings(', '  app.setLoginItemSettings(', 'shell', 'login item'],
  ['index.ts', '  if (app.isPackaged) app.setLoginItemSettings({ openAtLogin: settings.startAtLogin })\n', '', 'shell', 'login item'],
  ['index.ts', '  await applySettings()\n', '', 'shell', 'login item'],
  ['ipc.ts', '      after?.(method, result.ok)\n', '', 'shell', 'login item'],
  ['index.ts', "app.on('window-all-closed', () => undefined)\n", '', 'shell', 'closing the window'],
  [
    'index.ts',
    '    openDataFolder: () => void shell.openPath(running!.dataDir),',
    '    openDataFolder: () => undefined,',
    'shell',
    'closing the window',
  ],
  ['tray.ts', "        { label: 'Open data folder', click: options.openDataFolder },\n", '', 'shell', 'closing the window'],
]

let restore: (() => void) | undefined
process.on('SIGINT', () => {
  restore?.()
  process.exit(130)
})

const only = process.argv.slice(2).map(Number)
let failures = 0
for (const [index, [file, line, replacement, test, filter]] of REMOVALS.entries()) {
  if (only.length && !only.includes(index)) continue
  const path = join('src/main/electron', file)
  const source = readFileSync(path, 'utf8')
  if (source.split(line).length !== 2) {
    console.log(`${index} NOT FOUND ${file}: ${JSON.stringify(line.trim())}`)
    failures++
    continue
  }
  restore = () => writeFileSync(path, source)
  try {
    writeFileSync(path, source.replace(line, replacement))
    const run = spawnSync('npx', ['vitest', 'run', TESTS[test], '-t', filter], {
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    })
    // A test that failed, not a filter that matched nothing.
    const caught = /Tests\s+\d+ failed/.test(run.stdout)
    if (!caught) failures++
    console.log(`${index} ${caught ? 'caught' : 'MISSED'} ${file}: ${JSON.stringify(line.trim()).slice(0, 90)}`)
  } finally {
    restore()
    restore = undefined
  }
}
process.exit(failures ? 1 : 0)
