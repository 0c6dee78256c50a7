/**
 * Fastify's own schema compilers are loaded when a route first needs them (http.ts): a route with a plain JSON
 * Schema still has its request validated by Ajv and its reply serialised by fast-json-stringify.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { silentLog } from '../log'
import { createHttpServer } from './http'

let app: FastifyInstance

beforeAll(async () => {
  app = createHttpServer({ log: silentLog })
  app.post(
    '/plain',
    {
      schema: {
        body: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'], additionalProperties: false },
        response: { 200: { type: 'object', properties: { twice: { type: 'integer' } } } },
      },
    },
    async (request) => ({ twice: (request.body as { n: number }).n * 2, secret: 'not in the schema' }),
  )
  await app.ready()
})
afterAll(() => app.close())

it('validates a request by its JSON Schema and serialises the reply by the response schema', async () => {
  const ok = await app.inject({ method: 'POST', url: '/plain', payload: { n: 4 } })
  expect(ok.statusCode).toBe(200)
  expect(ok.json()).toEqual({ twice: 8 })
  const refused = await app.inject({ method: 'POST', url: '/plain', payload: { n: 0 } })
  expect(refused.statusCode).toBeGreaterThanOrEqual(400)
  expect(refused.statusCode).toBeLessThan(500)
  expect(refused.json()).toMatchObject({ error: { message: expect.stringContaining('n') } })
})
