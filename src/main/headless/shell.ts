/**
 * The headless shell (docs/design.md#shells-and-commands): the app in plain Node, the owner's window over loopback HTTP, and system
 * Chromium through playwright-core for browser Sites.
 */
import { startApp, type AppOptions, type RunningApp } from '../app'
import { playwrightLauncher } from '../fetch/browser/playwright-launcher'

export interface HeadlessOptions extends Omit<AppOptions, 'shell' | 'browser' | 'adminHttp'> {
  /** System Chromium for browser Sites; without it they skip `no-fetcher` (or fall back to HTTP). */
  chromium?: string
  /** The admin token (the one kept in the data directory unless given). */
  adminToken?: string
  /** The admin listener's port (a free one unless given). */
  adminPort?: number
  /** A default admin port: when another program has it, take a free one instead of failing. */
  adminPortOrFree?: boolean
  /** Browser fetcher settings (tests shorten them). */
  browser?: AppOptions['browserOptions']
  /** How often the app looks for `npm run admin-link` requests, in real ms (tests shorten it). */
  adminLinkLookMs?: number
}

export type HeadlessShell = RunningApp & {
  readonly adminUrl: string
  /** The one-time sign-in link printed for a person (docs/adr/0087-sign-in-links-that-end.md). */
  readonly adminSignInUrl: string
  readonly adminPort: number
  /** A new one-time sign-in link, made now (Enter at the terminal, docs/adr/0127). */
  newAdminSignInLink(): string
  /** The default admin port, when another program had it and a free one was taken for this start. */
  readonly adminPortTaken?: number
  /** What has not finished stopping yet (empty before `stop()` and after it). */
  stillStopping(): string[]
}

export async function startHeadlessShell(options: HeadlessOptions): Promise<HeadlessShell> {
  const { chromium, adminToken, adminPort, adminPortOrFree, browser, adminLinkLookMs, ...rest } = options
  const app = await startApp({
    ...rest,
    shell: 'headless',
    adminHttp: {
      token: adminToken || undefined,
      port: adminPort,
      orFree: adminPortOrFree,
      linkLookMs: adminLinkLookMs,
    },
    browser: chromium ? (profileDir: string) => playwrightLauncher({ executablePath: chromium, userDataDir: profileDir }) : undefined,
    browserOptions: browser,
  })
  // Whatever sends requests stops first — the Lanes, then the browser (ending a check or a launch in
  // flight) — so nothing reaches a Site once a stop is asked; then the server drains and the store closes.
  const stopApp = app.stop
  const steps: Array<[string, () => Promise<void>]> = [
    ['the Lanes and Acquisitions', () => app.core.stopSending()],
    ['the browser', async () => app.core.fetchers.browser?.close()],
    ['the HTTP server, the store and the demo', stopApp],
  ]
  let pending: string[] = []
  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      pending = steps.map(([name]) => name)
      for (const [name, step] of steps) {
        await step().catch((error: unknown) => rest.log.error({ err: error }, `headless: stopping ${name} failed`))
        pending = pending.filter((n) => n !== name)
      }
    })())
  return Object.assign(app, { stop, stillStopping: () => [...pending] }) as HeadlessShell
}
