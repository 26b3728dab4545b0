// The OpenAPI document, generated from the same zod schemas the routes validate with.
import { z } from 'zod'
import { errorResponse } from '../../schemas.js'
import type { AnyRouteSpec } from '../define.js'

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<string, unknown>

export function openApiDocument(routes: readonly AnyRouteSpec[], prefix: string, baseUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const path = prefix + route.url.replace(/:([A-Za-z]+)/g, '{$1}')
    const params = route.params ? jsonSchema(route.params, 'input') : null
    const properties = (params?.properties ?? {}) as Record<string, unknown>
    const query = route.query ? jsonSchema(route.query, 'input') : null
    const status = String(route.status ?? 200)
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = {
      summary: route.summary,
      tags: [route.tag],
      ...(route.auth === 'user' ? { security: route.tokens ? [{ session: [] }, { bearer: [] }] : [{ session: [] }] } : {}),
      parameters: [
        ...Object.entries(properties).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
        ...Object.entries((query?.properties ?? {}) as Record<string, unknown>).map(([name, schema]) => ({ name, in: 'query', required: false, schema })),
      ],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } } } : {}),
      responses: {
        [status]: { description: 'OK', content: { 'application/json': { schema: route.response ? jsonSchema(route.response, 'output') : { type: 'object' } } } },
        '4XX': { description: 'Refused: the message says why; `field` names the bad input', content: { 'application/json': { schema: jsonSchema(errorResponse, 'output') } } },
      },
    }
  }
  return {
    openapi: '3.0.3',
    info: { title: 'BotWars Server API', version: '1', description: 'Play BotWars by web: everything a player or GM can do. Sign in by emailed link (cookie) or use a per-game API token.' },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'botwars_session' },
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token from POST /api/v1/games/{gameId}/api-token' },
      },
    },
    paths,
  }
}
