/** The OpenAPI document of the sync endpoint, generated from the same route table and zod schemas. */
import { z, type ZodType } from 'zod'
import { ErrorBody } from '../../shared/sync-schemas'
import type { SyncRoute } from './routes'

const ERROR_TEXT: Record<number, string> = {
  400: 'malformed JSON or a bad request line',
  401: 'no token, or an unknown one',
  404: 'not found (or not yours)',
  413: 'the body is larger than 64 KiB',
  415: 'the body is not application/json',
  422: 'the request is well-formed but invalid (types, unknown fields, ranges, a URL off every pin)',
  429: 'too many requests for this token; retry later',
}

const schema = (s: ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' })

export function openApiDocument(routes: readonly SyncRoute[], version: string): object {
  const paths: Record<string, Record<string, object>> = {}
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z]+)/g, '{$1}')
    const parameters = [
      ...objectFields(r.params).map(([name, s]) => ({ name, in: 'path', required: true, schema: s })),
      ...objectFields(r.query).map(([name, s]) => ({ name, in: 'query', required: false, schema: s })),
    ]
    const responses: Record<string, object> = {
      [r.response.status]: {
        description: r.response.description,
        ...(r.response.schema
          ? { content: { 'application/json': { schema: z.toJSONSchema(r.response.schema, { io: 'output', unrepresentable: 'any' }) } } }
          : {}),
      },
    }
    for (const status of r.errors) {
      responses[status] = { description: ERROR_TEXT[status] ?? 'error', content: { 'application/json': { schema: schema(ErrorBody) } } }
    }
    ;(paths[path] ??= {})[r.method.toLowerCase()] = {
      summary: r.summary,
      ...(r.auth ? { security: [{ bearer: [] }] } : { security: [] }),
      ...(parameters.length ? { parameters } : {}),
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: schema(r.body) } } } } : {}),
      responses,
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Manga Bookmark sync API',
      version,
      description:
        'Readers keep bookmarks and Progress in sync. Every route but /health needs `Authorization: Bearer <token>`; a Reader sees only their own bookmarks.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  }
}

function objectFields(s: ZodType | undefined): Array<[string, object]> {
  if (!s) return []
  const json = schema(s) as { properties?: Record<string, object> }
  return Object.entries(json.properties ?? {})
}
