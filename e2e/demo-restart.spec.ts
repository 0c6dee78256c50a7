/**
 * The demo across a restart (issue #38), in real Chromium against the real headless shell: every Continue link
 * a Reader had before `npm start -- --demo` was stopped still opens its chapter after it starts again, because
 * the demo's Sites keep their port and their chapters (docs/adr/0133-the-demo-keeps-its-state.md).
 */
import { expect, test, type Page } from '@playwright/test'
import { startShell, tempData, type RunningShell } from './support/shell'

let shell: RunningShell | undefined
const data = tempData()
test.afterAll(async () => {
  await shell?.stop()
  data.remove()
})

async function continueLinks(page: Page, origin: string, token: string): Promise<string[]> {
  await page.goto(origin)
  await page.getByLabel('Your Reader token').fill(token)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()
  // The Lanes' first checks take a few gaps each: reload until more than a few cards can Continue.
  await expect(async () => {
    await page.reload()
    await expect(page.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()
    expect(await page.locator('[data-continue]').count()).toBeGreaterThan(3)
  }).toPass({ timeout: 75_000, intervals: [2_000] })
  return page.locator('[data-continue]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))
}

test("a restart keeps every Continue link of the demo's Readers working", async ({ page, request }) => {
  test.setTimeout(240_000)
  shell = await startShell({ dataDir: data.dir, args: ['--demo'] })
  const token = shell.tokens.Aiko!
  const demoOrigin = shell.demoOrigin!
  const before = await continueLinks(page, shell.origin, token)
  for (const href of before) expect([href, (await request.get(href)).status()]).toEqual([href, 200])
  await shell.stop()

  shell = await startShell({ dataDir: data.dir, args: ['--demo'] })
  expect(shell.demoOrigin).toBe(demoOrigin)
  // The links a Reader kept (a tab, a message) open their chapter still.
  for (const href of before) expect([href, (await request.get(href)).status()]).toEqual([href, 200])
  const after = await continueLinks(page, shell.origin, token)
  for (const href of after) {
    expect(new URL(href).origin).toBe(demoOrigin)
    expect([href, (await request.get(href)).status()]).toEqual([href, 200])
  }
})
