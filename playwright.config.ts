import { defineConfig } from '@playwright/test'
import { existsSync } from 'node:fs'
import { chromiumArgs } from './src/main/fetch/browser/chromium-flags'

/** System Chromium (Debian's), never a downloaded browser. */
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined)

export default defineConfig({
  testDir: 'e2e',
  testIgnore: ['**/support/**'],
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 860 },
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: chromiumArgs(process.getuid?.() === 0),
    },
  },
})
