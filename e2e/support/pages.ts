/** What the window and the Readers' page specs share: signing in, the pages, and the checks every page meets. */
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'
import jsQR from 'jsqr'
import type { RunningShell } from './shell'

export const PHONE = { width: 360, height: 780 }
export const WIDE = { width: 1280, height: 860 }

/** Opens the admin URL the shell printed: a session, and the Overview. */
export async function signInAdmin(page: Page, shell: RunningShell): Promise<string> {
  await page.goto(shell.adminUrl!)
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()
  return shell.adminOrigin!
}

/** Every address the tab's history holds, walking back from the current entry (the tab is left at the first). */
export async function historyAddresses(page: Page): Promise<string[]> {
  const entries = await page.evaluate(() => history.length)
  const seen = [page.url()]
  for (let i = 1; i < entries; i++) {
    await page.goBack()
    seen.push(page.url())
  }
  return seen
}

/** Signs a Reader in on the Readers' page. */
export async function signInReader(page: Page, shell: RunningShell, token: string): Promise<void> {
  await page.goto(shell.origin)
  await page.getByLabel('Your Reader token').fill(token)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: /Your bookmarks/ })).toBeVisible()
}

/** axe-core's WCAG 2.x A and AA rules and its best practices, on the whole page: every violation, with where. */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze()
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
}

/** How far the page scrolls sideways: 0 when nothing is wider than the window. */
export function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
}

/** The page's QR code (`[data-qr]`) as drawn, read back from its pixels as a phone's camera would. */
export async function decodeQr(page: Page, side = 480): Promise<string | undefined> {
  const pixels = await page.evaluate(async (size) => {
    const svg = document.querySelector('[data-qr]')!
    const image = new Image()
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`
    await image.decode()
    const canvas = document.createElement('canvas')
    canvas.width = canvas.height = size
    const context = canvas.getContext('2d')!
    context.drawImage(image, 0, 0, size, size)
    return Array.from(context.getImageData(0, 0, size, size).data)
  }, side)
  return jsQR(Uint8ClampedArray.from(pixels), side, side)?.data
}
