/**
 * The flags system Chromium needs on a locked-down machine (docs/toolchain.md#chromium); `--no-sandbox` only as root. No
 * QUIC: its UDP would not go through the fetcher's pin gate (docs/adr/0030), which carries TCP only.
 */
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
    '--disable-quic',
  ]
}
