/** Builds the pages once before the browser tests, as `npm run headless` would. */
import { execFileSync } from 'node:child_process'

export default function globalSetup(): void {
  execFileSync(process.execPath, ['scripts/ensure-built.mjs'], { stdio: 'inherit' })
}
