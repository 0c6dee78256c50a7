import { defineConfig } from '@playwright/test'
import { existsSync } from 'node:fs'

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
      args: [
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
})
