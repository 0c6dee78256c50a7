/**
 * The Electron shell's behaviours, named once: the stand-in tests (src/main/electron/*.test.ts) and the
 * end-to-end spec on the real binary (e2e/electron.spec.ts) use these names, so where Electron exists the two
 * runs can be compared behaviour by behaviour (docs/adr/0082-the-electron-stand-in.md).
 */
export const ELECTRON_BEHAVIOURS = {
  ipc: 'IPC: every admin method answers through the core',
  frames: 'IPC: a call from another frame or origin is refused',
  secondInstance: 'a second instance focuses the first and exits',
  tray: 'closing the window hides it to the tray',
  sleep: 'sleep and wake: suspend stops the Lanes, resume starts them',
  notifications: 'New Chapter notifications: batched per pass, escaped, opening the right Series',
  fetcher: "the browser fetcher's session keeps the pin and denies permissions",
  quit: 'quit drains in order within the stop deadline',
  loginItem: "the login item follows the owner's setting (a packaged app)",
  native: 'the native SQLite module is the one built for Electron, or the message says so',
} as const
