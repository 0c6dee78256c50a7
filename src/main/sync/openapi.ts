/**
 * What the sync endpoint's OpenAPI document says beside its routes' schemas (docs/adr/0100-…): the document's
 * head, and the answers routes declare — a usual answer (`answer`), an empty one (`nothing`) and the error shape
 * for each status a route may refuse with (`REFUSAL`). `@fastify/swagger` writes the document from the routes
 * as registered, their zod schemas turned into JSON Schema by the type provider's `jsonSchemaTransform`; the same
 * schemas validate each request and serialise each reply, so the document cannot drift from what is answered.
 */
import type { FastifyDynamicSwaggerOptions, SwaggerTransform } from '@fastify/swagger'
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify'
import type { OpenAPIV3_1 } from 'openapi-types'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import { z, type ZodType } from 'zod'
import { ErrorBody } from '../../shared/sync-schemas'
import { WEBHOOKS } from './webhook-doc'

export const OPENAPI_PATH = '/api/v1/openapi.json'

/** A JSON answer with its schema: it serialises the reply and describes it. */
export const answer = <T extends ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})

/** An answer with no body (204). */
export const nothing = (description: string) => z.null().describe(description)

/** The error shape, for each status a route may refuse with: a route lists its own (`401: REFUSAL[401]`). */
export const REFUSAL = {
  400: answer(ErrorBody, 'malformed JSON or a bad request line'),
  401: answer(ErrorBody, 'no token, or an unknown one'),
  403: answer(ErrorBody, 'the owner turned this off'),
  404: answer(ErrorBody, 'not found (or not yours)'),
  413: answer(ErrorBody, 'the body is larger than 64 KiB'),
  415: answer(ErrorBody, 'the body is not application/json'),
  422: answer(ErrorBody, 'the request is well-formed but invalid (types, unknown fields, ranges, a URL off every pin)'),
  429: answer(ErrorBody, 'too many requests for this token; retry later'),
}

/** What a route that takes a JSON body may be refused with, besides its own refusals. */
export const WITH_A_BODY = { 400: REFUSAL[400], 413: REFUSAL[413], 415: REFUSAL[415], 422: REFUSAL[422] }

/** A route that takes no query refuses one; one that takes no body refuses one (a DELETE with a body changes nothing). */
export const NO_QUERY = z.strictObject({}, 'this route takes none')
export const NO_BODY = z.null('this route takes none')

/** The provider's transform, without the body a route does not take (NO_BODY is a refusal, not a request body). */
const transform: SwaggerTransform<FastifySchema> = (route) =>
  jsonSchemaTransform(route.schema?.body === NO_BODY ? { ...route, schema: { ...route.schema, body: undefined } } : route)

export function swaggerOptions(version: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Manga Bookmark sync API',
        version,
        description:
          'Readers keep bookmarks and Progress in sync. Every route but /health needs `Authorization: Bearer <token>`; a Reader sees only their own bookmarks.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
      // What the app sends to a webhook channel: its headers, body and signature.
      // (JSON Schema 2020-12 as OpenAPI 3.1 takes it; the option's type is 3.0's.)
      webhooks: WEBHOOKS as unknown as NonNullable<OpenAPIV3_1.Document['webhooks']>,
    },
    transform,
  }
}

/**
 * The document, written when first asked for (docs/adr/0229-a-start-that-loads-what-it-answers-with.md): the scope's
 * routes and child scopes are kept as they are registered — what `@fastify/swagger`'s own hooks keep — and the plugin,
 * with YAML and its schema resolver, is loaded and handed them at the first request, so a start never loads it. The
 * document is the plugin's, from the same routes and options (openapi.test.ts compares it with an eager registration).
 */
export function openapiOnFirstUse(scope: FastifyInstance, options: FastifyDynamicSwaggerOptions): () => Promise<unknown> {
  const routes: RouteOptions[] = []
  const scopes: FastifyInstance[] = []
  scope.addHook('onRoute', (route) => void routes.push(route))
  scope.addHook('onRegister', (child) => void scopes.push(child))
  let written: Promise<() => unknown> | undefined
  const write = async (): Promise<() => unknown> => {
    const { default: swagger } = await import('@fastify/swagger')
    let document: (() => unknown) | undefined
    // The plugin's side of a Fastify instance, answered from what was kept: its hooks hear every route and scope
    // at once, and the server is ready.
    const host = {
      addHook(name: string, hook: (arg: unknown) => unknown) {
        if (name === 'onRoute') for (const route of routes) hook(route)
        else if (name === 'onRegister') for (const child of scopes) void hook(child)
        else if (name === 'onReady') hook(() => {})
      },
      getSchemas: () => scope.getSchemas(),
      decorate(_name: string, value: () => unknown) {
        document = value
      },
    }
    swagger(host as unknown as FastifyInstance, options, (error) => {
      if (error) throw error
    })
    if (!document) throw new Error('openapi: @fastify/swagger wrote no document')
    return document
  }
  return async () => {
    written ??= write()
    return (await written)()
  }
}
