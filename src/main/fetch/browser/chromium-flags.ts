/** The flags system Chromium needs on a locked-down machine (docs/toolchain.md); `--no-sandbox` only as root. */
export function chromiumArgs(isRoot: boolean): string[] {
  return [
    ...(isRoot ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--mute-audio',
  ]
}
