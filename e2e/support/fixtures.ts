/**
 * Playwright fixtures (`test.extend`) for the specs that drive one headless shell: `shell`, the running shell on a
 * temporary data directory, and `adminPage`, a page signed in to the owner's window with the admin token.
 *
 * A shell takes seconds to start, so it is not made per test: a spec calls `useShell(options)` once (at its top, or
 * in a `describe`), and the tests there share one shell — started for the first test that names `shell`, stopped and
 * its data directory removed after the last (`afterAll`), as each spec's own beforeAll/afterAll did. It is held
 * by a worker fixture (`shells`) so that it outlives a test; with `workers: 1` and the files in turn, no two specs
 * ever share one. `prepare` seeds the data directory before the start and `started` runs once after it, in place of
 * what a spec's beforeAll did around its start. A spec whose test stops and starts the shell itself (a restart
 * under test) calls `startShell` by hand instead.
 */
import { expect, test as base, type Page } from '@playwright/test'
import { startShell, tempData, type RunningShell } from './shell'

export interface ShellOptions {
  /** Arguments after `--data`, `--port` and `--admin-port` (e.g. `--demo`). */
  args?: string[]
  env?: Record<string, string>
  /** Started with `--admin-token TOKEN`, for `adminPage`. */
  adminToken?: string
  /** Seeds the empty data directory before the start (a sites.json, a library file). */
  prepare?: (dataDir: string) => void | Promise<void>
  /** Runs once after the start, before the first test (a setting written to the store, a first pass awaited). */
  started?: (shell: RunningShell) => void | Promise<void>
}

/** The one shell of the spec (or `describe`) running now, if any. */
class Shells {
  #running?: { shell: RunningShell; remove(): void }

  async current(options: ShellOptions): Promise<RunningShell> {
    if (this.#running) return this.#running.shell
    const data = tempData()
    const args = [...(options.args ?? []), ...(options.adminToken ? ['--admin-token', options.adminToken] : [])]
    let shell: RunningShell | undefined
    try {
      await options.prepare?.(data.dir)
      // No browser: the shell's browser Sites skip, as they do in every spec.
      shell = await startShell({ dataDir: data.dir, args, env: { CHROMIUM_PATH: '/nonexistent', ...options.env } })
      await options.started?.(shell)
      this.#running = { shell, remove: data.remove }
      return shell
    } catch (error) {
      await shell?.stop()
      data.remove()
      throw error
    }
  }

  async stop(): Promise<void> {
    const running = this.#running
    this.#running = undefined
    await running?.shell.stop()
    running?.remove()
  }
}

export const test = base.extend<{ shellOptions: ShellOptions; shell: RunningShell; adminPage: Page }, { shells: Shells }>({
  shellOptions: [{}, { option: true }],
  shells: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture with no fixtures of its own
    async ({}, use) => {
      const shells = new Shells()
      await use(shells)
      await shells.stop()
    },
    { scope: 'worker' },
  ],
  // A timeout of its own: the start of the spec's shell is not charged to the test that happens to come first.
  shell: [
    async ({ shells, shellOptions }, use) => {
      await use(await shells.current(shellOptions))
    },
    { timeout: 60_000 },
  ],
  adminPage: async ({ page, shell, shellOptions }, use) => {
    if (!shellOptions.adminToken) throw new Error('adminPage needs useShell({ adminToken })')
    await page.goto(`${shell.adminOrigin}/admin/?token=${shellOptions.adminToken}`)
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()
    await use(page)
  },
})

/** One shell for the tests of this spec (or `describe`), with these options; stopped after its last test. */
export function useShell(options: ShellOptions): void {
  test.use({ shellOptions: options })
  test.afterAll(async ({ shells }) => {
    await shells.stop()
  })
}

export { expect }
