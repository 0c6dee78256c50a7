/**
 * The owner's window and the Readers' page do not share an origin (docs/adr/0042): in real Chromium, with the
 * owner signed in to the admin listener, a script on the Readers' page — or on any other page on this machine
 * — cannot make an admin call, though the browser holds the session.
 */
import { type Page } from '@playwright/test'
import { expect, test, useShell } from './support/fixtures'
import type { RunningShell } from './support/shell'
import { withDb } from './support/db'

useShell({ args: ['--demo'], adminToken: 'e2e-admin-token-0123456789' })

const readerNames = (shell: RunningShell) =>
  withDb(shell.dataFile, (db) => db.prepare('SELECT name FROM readers ORDER BY name').all()) as Array<{ name: string }>

/** What a script on the current page gets from one admin call, sent with the browser's cookies. */
function callAdmin(page: Page, url: string, name: string) {
  return page.evaluate(
    async ([target, reader]) => {
      try {
        const response = await fetch(target, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: reader }),
        })
        return `HTTP ${response.status}`
      } catch (error) {
        return `refused: ${(error as Error).message}`
      }
    },
    [url, name] as const,
  )
}

test('a script on the Readers’ page cannot call the admin RPC while the owner is signed in', async ({ adminPage: page, shell }) => {
  // The session works from the window itself.
  expect(await callAdmin(page, '/admin/rpc/addReader', 'Owner Added')).toBe('HTTP 200')

  await page.goto(shell.origin)
  // Same origin as the page: there is no admin there any more.
  expect(await callAdmin(page, '/admin/rpc/addReader', 'Mallory')).toBe('HTTP 404')
  // The admin's own origin: the page's CSP does not let it connect, and the admin would refuse its Origin.
  expect(await callAdmin(page, `${shell.adminOrigin}/admin/rpc/addReader`, 'Mallory')).toMatch(/^refused/)

  expect(readerNames(shell).map((r) => r.name)).toContain('Owner Added')
  expect(readerNames(shell).map((r) => r.name)).not.toContain('Mallory')
})

test('a page on another loopback port (same site, its cookies sent) is refused by the Origin check', async ({ adminPage: page, shell }) => {
  // The demo Sites' server: another service on 127.0.0.1, with no CSP of ours.
  await page.goto(`${shell.demoOrigin}/madara/manga/the-tower-climber/`)
  const answer = await page.evaluate(async (target) => {
    // A request a page may send anywhere without asking first (no preflight): the browser attaches the session.
    await fetch(target, { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{"name":"Mallory Two"}' })
    return 'sent'
  }, `${shell.adminOrigin}/admin/rpc/addReader`)
  expect(answer).toBe('sent')
  expect(readerNames(shell).map((r) => r.name)).not.toContain('Mallory Two')
})
