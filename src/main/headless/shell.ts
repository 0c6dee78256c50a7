/**
 * The headless shell (docs/design.md#shells-and-commands): the app in plain Node, the owner's window over loopback HTTP, and system
 * Chromium through playwright-core for browser Sites.
 */
import { startApp, type AppOptions, type RunningApp } from '../app'
import { playwrightLauncher } from '../fetch/browser/playwright-launcher'

export interface HeadlessOptions extends Omit<AppOptions, 'shell' | 'browser' | 'adminHttp'> {
  /** System Chromium for browser Sites; without it they skip `no-fetcher` (or fall back to HTTP). */
  chromium?: string
  /** The admin token (random unless given). */
  adminToken?: string
  /** Browser fetcher settings (tests shorten them). */
  browser?: AppOptions['browserOptions']
}

export type HeadlessShell = RunningApp & { readonly adminUrl: string }

export async function startHeadlessShell(options: HeadlessOptions): Promise<HeadlessShell> {
  const { chromium, adminToken, browser, ...rest } = options
  const app = await startApp({
    ...rest,
    shell: 'headless',
    adminHttp: adminToken ? { token: adminToken } : {},
    ...(chromium ? { browser: (profileDir: string) => playwrightLauncher({ executablePath: chromium, userDataDir: profileDir }) } : {}),
    ...(browser ? { browserOptions: browser } : {}),
  })
  return app as HeadlessShell
}
