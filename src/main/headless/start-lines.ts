/**
 * What the headless shell tells the person at the terminal once it runs (docs/adr/0076-an-owners-address-that-lasts.md):
 * a few plain lines — where the data is, the admin URL and what it is for, the one-time sign-in link for a person
 * (docs/adr/0087-sign-in-links-that-end.md), where Readers go, what the browser Sites use, where the log is. The
 * first two keep their shape: tools outside the app read them (`data FILE · serving ORIGIN (port N)`,
 * `admin: http://127.0.0.1:M/admin/?token=…`). Pure.
 */
import { join } from 'node:path'
import { LOG_FILE } from '../log'
import { readerAddress } from '../server/addresses'
import type { HeadlessShell } from './shell'

type Started = Pick<
  HeadlessShell,
  'dataFile' | 'origin' | 'port' | 'adminUrl' | 'adminSignInUrl' | 'adminPortTaken' | 'adminPort' | 'demoOrigin' | 'demoReaders'
> & {
  core: { siteProblems: readonly string[] }
}

/** What a bind to every address means, after the origin: which address a phone uses. '' for one address. */
function servingMeans(origin: string, readers: { url: string; reachableFromOtherDevices: boolean }): string {
  if (!/^http:\/\/(0\.0\.0\.0|\[::\])[:/]/.test(origin)) return ''
  return readers.reachableFromOtherDevices
    ? ` — every address of this machine; from another device use ${readers.url}`
    : ' — every address of this machine, but none on a local network was found (is the Wi-Fi connected?)'
}

export function startLines(shell: Started, context: { chromium?: string | undefined; logDir: string }): string[] {
  const readers = readerAddress(shell.origin, '')
  return [
    `data ${shell.dataFile} · serving ${shell.origin} (port ${shell.port})${servingMeans(shell.origin, readers)}`,
    `admin: ${shell.adminUrl}`,
    `sign in: ${shell.adminSignInUrl}`,
    "open the sign-in link above in a browser on this computer: it is the owner's window. It works once, within 10 minutes, " +
      "so the browser's history keeps nothing that signs in; press Enter here for a new one (or run npm run admin-link). " +
      'The admin URL with the token is the same at every start, for tools.',
    ...(shell.adminPortTaken !== undefined
      ? [
          `warning: port ${shell.adminPortTaken} for the owner's window is taken by another program, so this start uses ${shell.adminPort}: ` +
            `the admin URL above works until the next start (choose a port with --admin-port N).`,
        ]
      : []),
    readers.reachableFromOtherDevices
      ? `Readers open ${readers.url} on their phones and laptops (the local network).`
      : `Readers open ${readers.url} — on this computer only, until you let the local network in (Readers page, or Settings).`,
    ...shell.core.siteProblems,
    `browser Sites ${context.chromium ? `use ${context.chromium}` : 'have no browser (no Chromium found; see --chromium)'}`,
    ...(shell.demoOrigin ? [`demo Sites on ${shell.demoOrigin}`] : []),
    ...shell.demoReaders.map(({ name, token }) => `demo Reader ${name}, token ${token} (shown once)`),
    `log: ${join(context.logDir, LOG_FILE)} (warnings and errors are shown here too; --verbose shows every line)`,
    'ready. Ctrl-C stops it.',
  ]
}
