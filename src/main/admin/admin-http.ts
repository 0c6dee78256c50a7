/**
 * The owner's window over loopback HTTP (docs/design.md#shells-and-commands): `/admin/` serves the built renderer; `POST
 * /admin/rpc/<method>` is one route per admin method. Opening `/admin/?token=…` sets an HttpOnly,
 * SameSite=Strict session cookie and redirects to `/admin/`, dropping the token from the address. Every RPC
 * checks the session, the Host (against DNS rebinding) and the Origin (against cross-site requests), and
 * answers only loopback peers — even when the sync endpoint is bound to the LAN.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import cookie from '@fastify/cookie'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { IMPORT_MAX_BASE64_CHARS, IMPORT_MAX_FILE_BYTES } from '../../shared/library'
import type { AdminCaller } from './validated'
import { AppError, ERROR_STATUS } from '../../shared/errors'
import { pageHeaders } from '../server/pages'

export const SESSION_COOKIE = 'mb_admin'

export function newAdminToken(): string {
  return randomBytes(32).toString('base64url')
}

/** The session cookie's value: derived from the admin token, so a restart with the same token keeps it. */
export function sessionValue(adminToken: string): string {
  return createHmac('sha256', adminToken).update('manga-bookmark admin session v1').digest('base64url')
}

export interface AdminHttpOptions {
  caller: AdminCaller
  adminToken: string
  /** The port the server listens on (for the Host check), read when a request arrives. */
  port(): number
  html: string
}

export async function registerAdminHttp(app: FastifyInstance, options: AdminHttpOptions): Promise<void> {
  await app.register(cookie)
  const expected = Buffer.from(sessionValue(options.adminToken))
  const tokenBuffer = Buffer.from(options.adminToken)

  const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b)
  const hasSession = (request: FastifyRequest) => sameBytes(Buffer.from(request.cookies[SESSION_COOKIE] ?? ''), expected)
  const allowedHosts = () => {
    const port = options.port()
    return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
  }

  function guard(request: FastifyRequest, needsOrigin: boolean): void {
    if (!isLoopback(request.socket.remoteAddress)) throw new AppError('forbidden', 'the admin surface answers only on this machine')
    const host = request.headers.host ?? ''
    if (!allowedHosts().has(host)) throw new AppError('forbidden', 'unexpected Host header')
    if (needsOrigin && request.headers.origin !== `http://${host}`) throw new AppError('forbidden', 'cross-origin request refused')
  }

  const page = (reply: FastifyReply) => pageHeaders(reply).type('text/html; charset=utf-8').send(options.html)

  app.get('/admin', async (_request, reply) => reply.redirect('/admin/', 302))
  app.get('/admin/', async (request, reply) => {
    guard(request, false)
    const token = (request.query as { token?: unknown }).token
    if (typeof token === 'string') {
      if (!sameBytes(Buffer.from(token), tokenBuffer))
        throw new AppError('unauthorized', 'that admin token is not valid; use the URL the app printed')
      void reply.setCookie(SESSION_COOKIE, expected.toString(), { httpOnly: true, sameSite: 'strict', path: '/admin', secure: false })
      return reply.header('cache-control', 'no-store').redirect('/admin/', 303)
    }
    return page(reply)
  })

  // The session, Host and Origin are checked when a request arrives, before its body is read.
  const onRequest = async (request: FastifyRequest) => {
    guard(request, true)
    if (!hasSession(request)) throw new AppError('unauthorized', 'no admin session: open the admin URL the app printed')
  }
  const rpc = async (request: FastifyRequest, reply: FastifyReply) => {
    const method = (request.params as { method?: string }).method ?? request.url.slice('/admin/rpc/'.length).split('?')[0]!
    const result = await options.caller.call(method, request.body)
    void reply.header('cache-control', 'no-store')
    if (result.ok) return { value: result.value ?? null }
    return reply.code(ERROR_STATUS[result.error.code]).send({ error: result.error })
  }
  app.post('/admin/rpc/:method', { onRequest }, rpc)
  // An import carries its file in the body (base64): this one method takes bodies up to IMPORT_RPC_BODY_LIMIT.
  app.post(
    '/admin/rpc/startImport',
    {
      onRequest,
      bodyLimit: IMPORT_RPC_BODY_LIMIT,
      errorHandler: (error, _request, reply) => {
        if ((error as { code?: string }).code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error
        void reply.code(413).send({
          error: {
            code: 'too-large',
            message: `the file is larger than ${IMPORT_MAX_FILE_BYTES / 1024 / 1024} MiB, the most an import reads`,
          },
        })
      },
    },
    rpc,
  )
}

/** The largest body of `startImport`: a file of IMPORT_MAX_FILE_BYTES as base64, and room for the JSON around it. */
export const IMPORT_RPC_BODY_LIMIT = IMPORT_MAX_BASE64_CHARS + 64 * 1024

function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')
}
