// @ts-check
/**
 * `npm run headless -- --data DIR [--port N] [--admin-token T] [--chromium PATH] [--demo]`: builds what is
 * stale, then runs the headless shell's built entry (out/main/headless.js) in this very process. npm starts
 * it with `exec`, so the process npm waits on is the app: SIGTERM and Ctrl-C reach it, and it stops in order
 * (docs/adr/0032).
 */
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureBuilt } from './ensure-built.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const status = ensureBuilt()
if (status !== 0) process.exit(status)
await import(pathToFileURL(join(root, 'out/main/headless.js')).href)
