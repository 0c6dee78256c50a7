/**
 * The built Vue pages served over HTTP: the Readers' page at `/` on the sync endpoint, and in the headless
 * shell the owner's window at `/admin/` on the admin listener, each with its assets. Strict security headers on every page: a CSP, no framing.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'

export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ')

export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', PAGE_CSP)
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('permissions-policy', 'camera=(), microphone=(), geolocation=()')
    .header('cache-control', 'no-cache')
}

/** Where the style of the app's own small pages (a sign-in link that no longer works) is served, on the admin listener. */
export const PROBLEM_CSS_PATH = '/admin/problem.css'

/** The style of those pages: the owner's window's colours and type, light and dark, as a file (the CSP forbids inline styles). */
export const PROBLEM_CSS = `:root{color-scheme:light dark;--bg:#f7f7f5;--surface:#fff;--fg:#1d1d1b;--muted:#686862;--border:#dcdcd6;--attention:#9a6700}
@media (prefers-color-scheme:dark){:root{--bg:#161615;--surface:#1f1f1d;--fg:#ececea;--muted:#a6a69f;--border:#3a3a37;--attention:#e3b341}}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
main{max-width:36rem;margin:3rem auto;padding:1.5rem 1.75rem;background:var(--surface);border:1px solid var(--border);border-radius:8px}
h1{font-size:1.35rem;margin:0 0 1rem;border-left:4px solid var(--attention);padding-left:.6rem}
p{margin:.75rem 0}p+p{color:var(--muted)}code{overflow-wrap:anywhere}
.brand{font-size:.85rem;color:var(--muted);margin:0 0 1rem}`

/**
 * One of the app's own small pages (a sign-in link that no longer works): a title and a few sentences, styled by
 * PROBLEM_CSS. The words are the app's own; nothing from a request is put in them.
 */
export function problemPageHtml(title: string, lines: readonly string[]): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="color-scheme" content="light dark"><title>${title} · Manga Bookmark</title>`,
    `<link rel="stylesheet" href="${PROBLEM_CSS_PATH}"></head>`,
    `<body><main><p class="brand">Manga Bookmark</p><h1>${title}</h1>`,
    ...lines.map((line) => `<p>${line}</p>`),
    '</main></body></html>',
  ].join('')
}

/** Where electron-vite puts the renderer build, seen from the running code (source or bundle). */
export function defaultRendererDir(): string {
  const here = dirname(fileURLToPath(import.meta.url))
  const candidates = [join(here, '../renderer'), join(here, '../../../out/renderer')]
  return candidates.find((dir) => existsSync(join(dir, 'reader.html'))) ?? candidates[1]!
}

export interface PagesOptions {
  rendererDir: string
  /**
   * Serve the owner's window at /admin/ instead of the Readers' page: the headless shell's admin listener,
   * which serves nothing else (docs/adr/0042-the-admin-on-its-own-listener.md).
   */
  admin?: (app: FastifyInstance, html: string) => Promise<void>
}

export async function registerPages(app: FastifyInstance, options: PagesOptions): Promise<void> {
  const read = (name: string) => {
    const file = join(options.rendererDir, name)
    return existsSync(file) ? readFileSync(file, 'utf8') : null
  }
  const missing = `<!doctype html><title>Not built</title><p>The pages are not built. Run <code>npm run build</code>.</p>`
  if (!options.admin) {
    const reader = read('reader.html')
    app.get('/', async (_request, reply) =>
      pageHeaders(reply)
        .type('text/html; charset=utf-8')
        .send(reader ?? missing),
    )
    await registerReaderAppFiles(app, options.rendererDir)
  }
  if (existsSync(join(options.rendererDir, 'assets'))) {
    await app.register(fastifyStatic, {
      root: join(options.rendererDir, 'assets'),
      prefix: options.admin ? '/admin/assets/' : '/assets/',
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      immutable: true,
      maxAge: '365d',
    })
  }
  if (options.admin)
    app.get(PROBLEM_CSS_PATH, async (_request, reply) =>
      pageHeaders(reply).header('cache-control', 'max-age=3600').type('text/css; charset=utf-8').send(PROBLEM_CSS),
    )
  await options.admin?.(app, read('index.html') ?? missing)
}

/**
 * What makes the Readers' page an app on a phone (docs/adr/0056-the-readers-page-holds-still.md): its service
 * worker at the root (so its scope is the whole page), its manifest and its icons. Fixed names, read from the
 * build; never cached for long (a new build's worker must be seen).
 */
export const READER_APP_FILES: Record<string, string> = {
  '/sw.js': 'application/javascript; charset=utf-8',
  '/manifest.webmanifest': 'application/manifest+json; charset=utf-8',
  '/icons/icon-192.png': 'image/png',
  '/icons/icon-512.png': 'image/png',
}

async function registerReaderAppFiles(app: FastifyInstance, rendererDir: string): Promise<void> {
  for (const [path, type] of Object.entries(READER_APP_FILES)) {
    const file = join(rendererDir, path.slice(1))
    if (!existsSync(file)) continue
    const body = readFileSync(file)
    app.get(path, async (_request, reply) => pageHeaders(reply).type(type).send(body))
  }
}
