/**
 * A new owner's first day, as a script (issue #27), in real Chromium against the real headless shell: an empty
 * app → the checklist → add a Reader → let the local network in from the token screen (no restart) → the QR
 * code carries this machine's LAN address → bookmark a Series by URL, answered beside the field → restart the
 * shell → the same admin URL, and the window opened before still works. The LAN address is only decoded, never
 * sent to; the Sites are a fixture site on loopback, as the demo's are.
 */
// Not on the shell fixture (support/fixtures.ts): the test starts the shell itself, reads its output, restarts it on one port.
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { startFixtureSite, type FixtureSite } from '../src/main/demo/fixture-site'
import { axeViolations, decodeQr } from './support/pages'
import { startShell, tempData, type RunningShell } from './support/shell'

let fixture: FixtureSite
let unknown: FixtureSite
let data: { dir: string; remove(): void }
const shells: RunningShell[] = []

test.beforeAll(async () => {
  fixture = await startFixtureSite()
  unknown = await startFixtureSite()
  data = tempData()
  // One Site the app knows, on loopback: what `--demo` does, with nothing else in the library.
  writeFileSync(
    join(data.dir, 'sites.json'),
    JSON.stringify({
      sites: [{ key: 'loopback', name: 'Loopback Scans', hosts: [fixture.host], family: 'madara', idPattern: '^/madara/manga/([^/]+)' }],
    }),
  )
})
test.afterAll(async () => {
  for (const shell of shells) await shell.stop()
  await fixture?.close()
  await unknown?.close()
  data?.remove()
})

/** A port free now, for the admin listener: the same one across the restart, as the default port would be. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function start(adminPort: number): Promise<RunningShell> {
  const shell = await startShell({ dataDir: data.dir, adminPort, env: { CHROMIUM_PATH: '/nonexistent', MB_LOG_LEVEL: 'info' } })
  shells.push(shell)
  return shell
}

const lanAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && i.family === 'IPv4' && !i.internal)
    .map((i) => i!.address)

test('from an empty app to a phone that can sign in, and a restart that keeps the window', async ({ page }) => {
  const adminPort = await freePort()
  const first = await start(adminPort)
  // The terminal: a few plain lines, the one-time sign-in link among them, no JSON.
  expect(first.output()).toContain("open the sign-in link above in a browser on this computer: it is the owner's window")
  expect(
    first
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{')),
  ).toEqual([])

  // I open the sign-in link: the Overview says what to do first, and offers the demo.
  await page.goto(first.signInUrl!)
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()
  const checklist = page.locator('[data-checklist]')
  await expect(checklist.getByRole('heading', { name: 'Getting started' })).toBeVisible()
  await expect(checklist.locator('[data-done="false"]')).toHaveCount(3)
  await expect(checklist.locator('[data-demo]')).toContainText('npm start -- --demo')
  expect(await axeViolations(page)).toEqual([])
  // The Series page is not an empty box either.
  await page.getByRole('link', { name: 'Series', exact: true }).first().click()
  await expect(page.locator('[data-empty]')).toContainText('No Series yet')

  // Step 1: a Reader.
  await page.goto(`${first.adminOrigin}/admin/#/`)
  await checklist.getByRole('link', { name: 'Add a Reader' }).click()
  await expect(page.locator('[data-empty]')).toContainText('No Readers yet')
  await page.getByLabel('New Reader').fill('Dana')
  await page.getByRole('button', { name: 'Add Reader' }).click()
  const token = (await page.locator('[data-token]').textContent())!.trim()

  // Step 3, from the token screen: no code a phone could not open, one button, and the code appears — no restart.
  await expect(page.locator('[data-qr]')).toHaveCount(0)
  await expect(page.locator('[data-loopback-only]')).toContainText('Each still needs their own token')
  expect(await axeViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Let phones on this network in' }).click()
  await expect(page.locator('[data-qr]')).toBeVisible()
  const scanned = new URL((await decodeQr(page))!)
  expect(lanAddresses()).toContain(scanned.hostname)
  expect(scanned.port).toBe(String(first.port))
  expect(scanned.hash).toMatch(/^#code=[A-Za-z0-9_-]{43}$/)
  expect(scanned.href).not.toContain(token)
  // The endpoint moved in place: it still answers here, on the same port.
  expect((await fetch(`http://127.0.0.1:${first.port}/api/v1/health`)).status).toBe(200)
  await page.getByRole('button', { name: 'Done' }).click()

  // Step 2: a bookmark by URL, answered beside the field.
  const url = `${fixture.origin}/madara/manga/wolf/`
  await page.getByLabel('Series URL for Dana').fill(url)
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  const answer = page.locator('[data-reader="Dana"] [data-bookmark-answer]')
  // Its first read names it: the answer gives the title the Site shows, not the id in the URL.
  await expect(answer).toHaveText(/^Bookmarked (?!wolf ).+ for Dana\.$/)
  await expect(page.locator('[data-reader="Dana"] [data-label="Bookmarks"]')).toHaveText('1')
  // A site the app does not know: said there too, with the way to add it.
  const elsewhere = `${unknown.origin}/madara/manga/harbor-of-glass/`
  await page.getByLabel('Series URL for Dana').fill(elsewhere)
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(answer).toContainText('The app does not know this site yet')
  // A sentence, then its link: a space between them ("Series. Add this Site", never "Series.Add this Site").
  await expect(answer).toHaveText('The app does not know this site yet, so it cannot follow this Series. Add this Site')
  expect(await axeViolations(page)).toEqual([])
  await answer.getByRole('link', { name: 'Add this Site' }).click()
  await expect(page.getByRole('heading', { name: 'Add a Site' })).toBeVisible()
  await expect(page.getByLabel('Series URL')).toHaveValue(elsewhere)

  // Every step done: the checklist has gone.
  await page.getByRole('link', { name: 'Overview' }).click()
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()
  await expect(page.locator('[data-lane="loopback"]')).toBeVisible()
  await expect(checklist).toHaveCount(0)

  // Restart: the same admin URL, and the window I had open still works without it.
  await first.stop()
  const second = await start(adminPort)
  expect(second.adminUrl).toBe(first.adminUrl)
  await page.goto(`${second.adminOrigin}/admin/#/readers`)
  await expect(page.locator('[data-reader="Dana"]')).toBeVisible()
  await expect(page.getByText('Not signed in')).toHaveCount(0)
  // And the local network is still on: Readers' page address is the LAN one.
  await page.goto(`${second.adminOrigin}/admin/#/settings`)
  await expect(page.locator('[data-listening]')).toContainText(`http://${scanned.hostname}:`)
})
