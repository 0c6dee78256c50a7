/**
 * The Readers' page's service worker across builds (docs/adr/0099-a-service-worker-cache-per-build.md): each build
 * is a worker with a cache of its own, and a new build's worker deletes the old cache, the old assets with it.
 * Real Chromium runs the real worker source, versioned as the build versions it; a small loopback server plays
 * two builds one after the other (the app's server reads its files once at start, so it cannot be swapped live).
 */
// Not on the shell fixture (support/fixtures.ts): no shell runs here, only a small server whose build the test swaps.
import { expect, test, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { cacheVersion, versionedWorker } from '../scripts/service-worker'

const root = join(import.meta.dirname, '..')
const workerSource = readFileSync(join(root, 'src/renderer/reader/service-worker.js'), 'utf8')

/** A build's files by path: a page, its one hashed asset, the worker versioned over them, and the app files. */
function build(tag: string): Map<string, [string, string]> {
  const asset = `assets/page-${tag}.js`
  const html = `<!doctype html><title>Build ${tag}</title><script type="module" src="./${asset}"></script>`
  const js = 'application/javascript'
  return new Map([
    ['/', ['text/html', html]],
    [`/${asset}`, [js, `document.body.dataset.build = '${tag}'`]],
    ['/sw.js', [js, versionedWorker(workerSource, ['reader.html', asset])]],
    ['/manifest.webmanifest', ['application/manifest+json', '{}']],
    ['/icons/icon-192.png', ['image/png', '']],
    ['/icons/icon-512.png', ['image/png', '']],
  ])
}

let files = build('one')
let server: Server
let origin: string

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const file = files.get(new URL(request.url ?? '/', 'http://x').pathname)
    if (!file) return void response.writeHead(404).end()
    response.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-cache' }).end(file[1])
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
test.afterAll(() => new Promise<void>((done) => server.close(() => done())))

/** The caches the origin holds, each with the paths it keeps. */
function cachesOf(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const held: Record<string, string[]> = {}
    for (const name of await caches.keys()) {
      const keys = await (await caches.open(name)).keys()
      held[name] = keys.map((request) => new URL(request.url).pathname).sort()
    }
    return held
  })
}

test("a new build's worker deletes the old build's cache and the old assets in it", async ({ page }) => {
  const one = `mb-reader-${cacheVersion(workerSource, ['reader.html', 'assets/page-one.js'])}`
  const two = `mb-reader-${cacheVersion(workerSource, ['reader.html', 'assets/page-two.js'])}`
  expect(two).not.toBe(one)

  await page.goto(origin)
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js')
    await navigator.serviceWorker.ready
  })
  const shell = ['/icons/icon-192.png', '/icons/icon-512.png', '/manifest.webmanifest']
  expect(await cachesOf(page)).toEqual({ [one]: ['/', '/assets/page-one.js', ...shell].sort() })

  // The next build: the browser sees a changed worker, installs it and activates it over the old one.
  files = build('two')
  await page.evaluate(async () => {
    await (await navigator.serviceWorker.getRegistration())!.update()
  })
  await expect.poll(() => cachesOf(page)).toEqual({ [two]: ['/', '/assets/page-two.js', ...shell].sort() })
  expect(await page.evaluate(async () => (await caches.match('/assets/page-one.js')) === undefined)).toBe(true)
})

test("the build names the worker's cache after itself", () => {
  const built = readFileSync(join(root, 'out/renderer/sw.js'), 'utf8')
  expect(built).toMatch(/^const CACHE = 'mb-reader-[0-9a-f]{12}'$/m)
})
