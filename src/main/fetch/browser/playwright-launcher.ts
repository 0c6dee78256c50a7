/**
 * The headless shell's browser: system Chromium driven by playwright-core, with a persistent profile under
 * the data directory (a solved challenge's cookies last across passes and restarts) and one shared tab.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import type { PageRequest } from '../../sites/site'
import { USER_AGENT } from '../user-agent'
import { chromiumArgs } from './chromium-flags'
import { BodyTooLarge, BrowserGone, NavigationBlocked, type BrowserLauncher, type BrowserSession, type Snapshot } from './session'

/** `--chromium PATH`, else `$CHROMIUM_PATH`, else /usr/bin/chromium where it exists, else none. */
export function resolveChromium(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (flag) return flag
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined
}

export { chromiumArgs }

export interface PlaywrightLauncherOptions {
  executablePath: string
  /** The persistent profile, e.g. `<data>/browser-profile`. */
  userDataDir: string
}

export function playwrightLauncher(options: PlaywrightLauncherOptions): BrowserLauncher {
  return {
    async launch() {
      const context = await chromium.launchPersistentContext(options.userDataDir, {
        executablePath: options.executablePath,
        headless: true,
        args: chromiumArgs(process.getuid?.() === 0),
        // One User-Agent per session, naming the app: changing it mid-session causes challenge loops.
        userAgent: await chromeUserAgent(options.executablePath),
        viewport: { width: 1280, height: 900 },
        javaScriptEnabled: true,
        acceptDownloads: false,
        serviceWorkers: 'block',
        // Chromium's own config and crash database stay inside the profile, not in the user's home.
        env: {
          ...process.env,
          XDG_CONFIG_HOME: join(options.userDataDir, 'xdg-config'),
          XDG_CACHE_HOME: join(options.userDataDir, 'xdg-cache'),
        },
      })
      return playwrightSession(context)
    },
  }
}

async function chromeUserAgent(executablePath: string): Promise<string> {
  const { execFile } = await import('node:child_process')
  const version = await new Promise<string>((resolve) =>
    execFile(executablePath, ['--version'], { timeout: 5_000 }, (_error, stdout) =>
      resolve(/(\d+\.\d+\.\d+\.\d+)/.exec(stdout)?.[1] ?? '120.0.0.0'),
    ),
  )
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Safari/537.36 ${USER_AGENT.split(' ')[0]}`
}

interface PausedRequest {
  requestId: string
  frameId?: string
  request: { url: string }
  resourceType: string
  responseStatusCode?: number
  responseHeaders?: Array<{ name: string; value: string }>
}

/**
 * One tab, its every request and redirect hop checked against the host pin through the Chrome DevTools
 * Protocol's Fetch domain (Playwright's `page.route` sees only the first request of a redirect chain, so a
 * redirect off the pin would already have been requested). Nothing off the pin is requested — no document,
 * frame, script or XHR — and images, media and fonts are never loaded at all.
 */
function playwrightSession(context: BrowserContext): BrowserSession {
  let gone = false
  let allowed: (url: URL) => boolean = () => false
  let blocked: string | null = null
  let documentStatus = 0
  let mainFrameId = ''
  context.on('close', () => {
    gone = true
  })

  const ready = Promise.resolve(context.pages()[0] ?? context.newPage()).then(async (p) => {
    p.on('crash', () => {
      gone = true
    })
    p.on('response', (response) => {
      if (response.request().isNavigationRequest() && response.frame() === p.mainFrame()) documentStatus = response.status()
    })
    const cdp = await context.newCDPSession(p)
    cdp.on('Fetch.requestPaused', (event: PausedRequest) => {
      void decide(event)
        .then(
          (verdict) =>
            verdict === 'continue'
              ? cdp.send('Fetch.continueRequest', { requestId: event.requestId })
              : cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }),
          () => undefined,
        )
        .catch(() => undefined)
    })
    await cdp.send('Fetch.enable', {
      patterns: [
        { urlPattern: '*', requestStage: 'Request' },
        { urlPattern: '*', resourceType: 'Document', requestStage: 'Response' },
      ],
    })
    mainFrameId = ((await cdp.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } }).frameTree.frame.id
    return p
  })

  async function decide(event: PausedRequest): Promise<'continue' | 'block'> {
    if (event.resourceType === 'Image' || event.resourceType === 'Media' || event.resourceType === 'Font') return 'block'
    const location = event.responseHeaders?.find((h) => h.name.toLowerCase() === 'location')?.value
    const target = event.responseStatusCode && location ? resolve(location, event.request.url) : event.request.url
    if (isAllowed(target)) return 'continue'
    // Only the tab's own document makes the fetch fail; an off-pin script or frame is just not loaded.
    if (event.resourceType === 'Document' && (!event.frameId || event.frameId === mainFrameId)) blocked = target
    return 'block'
  }

  function resolve(location: string, base: string): string {
    try {
      return new URL(location, base).href
    } catch {
      return 'invalid:'
    }
  }

  function isAllowed(raw: string): boolean {
    try {
      return allowed(new URL(raw))
    } catch {
      return false
    }
  }

  const blockedError = () => new NavigationBlocked(`navigation off the host pin blocked: ${hostOf(blocked!)}`)

  const guard = async <T>(work: (p: Page) => Promise<T>): Promise<T> => {
    if (gone) throw new BrowserGone('the browser is gone')
    try {
      return await work(await ready)
    } catch (error) {
      if (
        gone ||
        /Target (page, context or browser )?(has been )?closed|Browser has been closed|browser has disconnected|Page crashed/i.test(
          (error as Error).message,
        )
      ) {
        gone = true
        throw new BrowserGone((error as Error).message.split('\n')[0])
      }
      throw error
    }
  }

  return {
    get gone() {
      return gone
    },
    goto(url, isPinned, timeoutMs) {
      allowed = isPinned
      blocked = null
      documentStatus = 0
      return guard(async (p) => {
        for (let attempt = 0; ; attempt++) {
          try {
            await p.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs })
            break
          } catch (error) {
            if (blocked) break
            // The error page of an earlier blocked navigation can still be arriving: go again once.
            if (attempt === 0 && /interrupted by another navigation/.test((error as Error).message)) continue
            throw error
          }
        }
        if (blocked) {
          // Let the error page settle so it does not interrupt the next navigation.
          await p.waitForURL(/^chrome-error:/, { timeout: 2_000 }).catch(() => undefined)
          throw blockedError()
        }
      })
    },
    snapshot: (maxBytes) =>
      guard(async (p): Promise<Snapshot> => {
        if (blocked) throw blockedError()
        const size = (await p.evaluate('document.documentElement.outerHTML.length')) as number
        if (size > maxBytes) throw new BodyTooLarge(maxBytes)
        const [title, html] = [await p.title(), await p.content()]
        return { url: p.url(), title, html, status: documentStatus }
      }),
    fetchInPage: (request: PageRequest, pinned, timeoutMs, maxBytes) =>
      guard(async (p) => {
        allowed = pinned
        if (!isAllowed(request.url)) throw new NavigationBlocked(`request off the host pin blocked: ${hostOf(request.url)}`)
        const answer = await p.evaluate(
          async ({ url, method, headers, body, timeoutMs, maxBytes }) => {
            const response = await fetch(url, {
              method,
              headers,
              body,
              credentials: 'include',
              redirect: 'error',
              signal: AbortSignal.timeout(timeoutMs),
            })
            const text = await response.text()
            if (text.length > maxBytes) return null
            return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: text }
          },
          { url: request.url, method: request.method, headers: request.headers ?? {}, body: request.body ?? null, timeoutMs, maxBytes },
        )
        if (!answer) throw new BodyTooLarge(maxBytes)
        return answer
      }),
    async close() {
      gone = true
      await context.close().catch(() => undefined)
    },
  }
}

function hostOf(raw: string): string {
  try {
    return new URL(raw).host
  } catch {
    return raw
  }
}
