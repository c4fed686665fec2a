import swagger, { type SwaggerTransformObject } from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { classComponents, hoistComponents, type OpenApiDocument } from './openapi-components.js'
import { completeOperations } from './openapi-statuses.js'
import { operationIds } from './operation-ids.js'

/**
 * The OpenAPI document and Swagger UI at /documentation. Registered before any route, because the
 * document is collected from routes as they are added.
 */
async function docs(app: FastifyInstance, { publicUrl, tags }: { publicUrl: string; tags: readonly { name: string; description: string }[] }) {
  // Operations the rate limiter leaves alone (`config.rateLimit: false`): they never answer 429.
  const unthrottled = new Set<string>()
  await app.register(swagger, {
    openapi: {
      // 3.1: its schemas are JSON Schema, the dialect the class schema is compiled to (exclusiveMinimum as a number, const, type null).
      openapi: '3.1.0',
      info: {
        title: 'Academic Department Knowledge Service',
        description: 'People, courses, degrees, labs and publications of an academic department. '
          + 'Sign in with a bearer ID token; records are addressed by ids of the form `<Type>/<identifier>`, '
          + 'which a path accepts URL-encoded (Faculty%2Fjsmith) or as two segments (Faculty/jsmith).',
        version: '1.0.0',
      },
      servers: [{ url: publicUrl }],
      tags: [...tags],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An ID token: `npm run token -- <email> --role <role>`' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (`adks_...`); the header name is case-sensitive' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    convertConstToEnum: false,
    // Built once, on the first request for the document, after every route is registered.
    transformObject: (built) => {
      const { openapiObject } = built as { openapiObject: ReturnType<SwaggerTransformObject> }
      const doc = openapiObject as OpenApiDocument
      completeOperations(doc, unthrottled)
      hoistComponents(doc, classComponents(app.schema))
      return openapiObject
    },
  })
  app.addHook('onRoute', operationIds())
  app.addHook('onRoute', (route) => {
    const { operationId } = (route.schema ?? {}) as { operationId?: string }
    if (operationId && (route.config as { rateLimit?: unknown } | undefined)?.rateLimit === false) unthrottled.add(operationId)
  })
  await app.register(swaggerUi, { routePrefix: '/documentation', uiConfig: { docExpansion: 'list', deepLinking: true } })
}

export const docsPlugin = fp(docs, { name: 'docs' })
