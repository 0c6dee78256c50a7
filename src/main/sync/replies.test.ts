/**
 * Replies go out through their route's response schema (docs/adr/0100-…): a reply the schema refuses — a field
 * it does not name, a value out of its range — is never sent; the caller gets 500 `internal` in the one error
 * shape, and the fault is logged. Run on a real server on a loopback port, set up as the sync API's scope is.
 */
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ReaderView } from '../../shared/sync-schemas'
import { createHttpServer, listen } from '../server/http'
import { useZodSchemas } from './api'
import { answer } from './openapi'

const logged: string[] = []
let app: FastifyInstance
let origin: string
/** What the test route answers: set by each test. */
let reply: unknown

beforeAll(async () => {
  const log = pino({ level: 'error' }, { write: (line: string) => void logged.push(line) })
  app = createHttpServer({ log })
  await app.register(async (scope) => {
    useZodSchemas(scope)
    scope
      .withTypeProvider<ZodTypeProvider>()
      // `never`: the reply is outside its type on purpose, as a bug would make it.
      .get('/reader', { schema: { response: { 200: answer(ReaderView, 'the Reader') } } }, async (_request, r) => r.send(reply as never))
  })
  origin = (await listen(app, 0)).origin
})
afterAll(() => app.close())

describe('a reply serialised by its schema', () => {
  it('goes out as the schema names it', async () => {
    reply = { id: 1, name: 'alice', createdAt: 5 }
    const response = await fetch(`${origin}/reader`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ id: 1, name: 'alice', createdAt: 5 })
  })

  it.each([
    ['a field the schema does not name', { id: 1, name: 'alice', createdAt: 5, tokenHash: 'secret-hash' }],
    ['a value out of its range', { id: 1, name: 'alice', createdAt: -1, tokenHash: 'secret-hash' }],
    ['a field missing', { id: 1, createdAt: 5, tokenHash: 'secret-hash' }],
  ])('with %s is refused: 500 internal, nothing of it sent, the fault logged', async (_name, body) => {
    reply = body
    logged.length = 0
    const response = await fetch(`${origin}/reader`)
    const text = await response.text()
    expect(response.status).toBe(500)
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal', message: expect.any(String) } })
    expect(text).not.toContain('secret-hash')
    expect(text).not.toContain('alice')
    expect(logged.join('\n')).toMatch(/http: request failed/)
  })
})
