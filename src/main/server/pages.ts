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
  await options.admin?.(app, read('index.html') ?? missing)
}
