import { SchemaGuard } from './migrations/guard.js'
import { installSchemaGuard } from './http/schema-guard.js'
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import type { DestinationStream } from 'pino'
import { CommitteeGroups } from './workflows/committee-groups.js'
import { authPlugin } from './auth/plugin.js'
import type { Config } from './config.js'
import { installJsonBodies } from './http/bodies.js'
import { auditPlugin } from './http/audit.js'
import { docsPlugin } from './http/docs.js'
import { responseCachePlugin } from './http/cache.js'
import { ErrorBody, errorsPlugin, frameworkErrors } from './http/errors.js'
import { idPathRewriter, maxParamLength } from './http/ids.js'
import { loggerOptions, requestId } from './http/logging.js'
import { requestLoggers } from './http/request-logger.js'
import { answerSerializers } from './http/serializers.js'
import { gatePlugin } from './http/gate.js'
import { revertRoutes } from './routes/history/reverts.js'
import { trashRoutes } from './routes/history/trash.js'
import { backupRoutes } from './routes/backups/index.js'
import { installValidation } from './http/validation.js'
import { webAppPlugin } from './http/web-app.js'
import { auditRoutes } from './routes/privacy/audit.js'
import { cacheAdminRoutes } from './routes/cache/index.js'
import { userRoutes } from './routes/auth/users.js'
import { jobRoutes } from './routes/jobs/jobs.js'
import { queueRoutes } from './routes/jobs/queues.js'
import { schedulerRoutes } from './routes/jobs/schedulers.js'
import { campusSyncRoutes } from './routes/campus-sync/index.js'
import { publicationImportRoutes } from './routes/publications/import.js'
import { apiKeyRoutes } from './routes/auth/api-keys.js'
import { meRoutes } from './routes/auth/me.js'
import { mePersonRoutes } from './routes/auth/me-person.js'
import { sessionRoutes } from './routes/auth/session.js'
import { samlRoutes } from './routes/auth/saml.js'
import { tokenRoutes } from './routes/auth/token.js'
import { healthRoutes } from './routes/health.js'
import { enrollmentRoutes } from './routes/privacy/enrollments.js'
import { facultyOptionRoutes } from './routes/people/faculty-options.js'
import { degreeDetail } from './routes/degrees/degree-detail.js'
import { recordRoutes } from './routes/records/index.js'
import { PublicationService } from './publications/service.js'
import { schemaRoutes } from './routes/schemas/index.js'
import { searchRoutes } from './routes/search/index.js'
import { studentRoutes } from './routes/privacy/students.js'
import { adviseeRoutes } from './routes/privacy/advisees.js'
import { planRoutes } from './routes/degrees/plans.js'
import { progressRoutes } from './routes/degrees/progress.js'
import { workflowRoutes } from './routes/workflows/index.js'
import { notificationRoutes } from './routes/notifications/index.js'
import { notificationPreferenceRoutes } from './routes/notifications/preferences.js'
import { webhookRoutes } from './routes/notifications/webhooks.js'
import { compileSchema, type CompiledSchema } from './schema/index.js'
import { createServices, type Services } from './services.js'
import type { Store } from './store/port.js'

declare module 'fastify' {
  // Each service is decorated under its name in Services (services.ts), where its type stands.
  interface FastifyInstance extends Services {
    config: Config
    schema: CompiledSchema
    /** Named checks /ready runs; each resolves to the adapter in use or throws. */
    readinessProbes: Map<string, () => Promise<string>>
  }
}

export interface AppOptions {
  /** Where log lines go (tests capture them); standard output by default. */
  readonly logStream?: DestinationStream
  /** An already open store to use instead of opening the configured one; the caller closes it. */
  readonly store?: Store
  /**
   * Registered after the cross-cutting plugins and before the routes, so their hooks see every route
   * and any route they add meets the same access checks (tests watch and extend the route table this way).
   */
  readonly plugins?: readonly FastifyPluginAsync[]
}

const tags = [
  { name: 'People', description: 'Faculty, staff and students' },
  { name: 'Courses', description: 'Courses and their sections' },
  { name: 'Degrees', description: 'Degrees, programs and their requirements' },
  { name: 'Research', description: 'Labs, research centers and shared resources' },
  { name: 'Search', description: 'Ranked search over people, courses and labs' },
  { name: 'Publications', description: 'Publications of department members' },
  { name: 'Student records', description: 'Enrollments, transcripts, degree progress and rosters: protected, and every access audited' },
  { name: 'Student planning', description: "Students' academic plans: only the student, their advisors and admins" },
  { name: 'Auth', description: 'Sign-in, the current user and permissions' },
  { name: 'API keys', description: 'Keys for programmatic read access to the catalog' },
  { name: 'Administration', description: 'Groups and users' },
  { name: 'Schemas', description: 'The class schema as JSON Schema, for form generators' },
  { name: 'Workflows', description: 'Approval workflows: thesis and independent research requests, fellowships, award nominations, major plans, graduate milestones; their definitions and instances' },
  { name: 'Notifications', description: "The caller's notifications and email preferences; webhooks for the department's other systems" },
  { name: 'Operations', description: 'Health and readiness' },
]

/**
 * Builds the service: infrastructure first (schema, store, services), then the cross-cutting plugins
 * (validation, documentation, sign-in, the request gate with its rate limits, errors), then the routes.
 * Tests build it in-process.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const schema = await compileSchema(config.schemaDir)
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    genReqId: requestId,
    childLoggerFactory: requestLoggers,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    rewriteUrl: idPathRewriter(new Set(schema.collections.flatMap((c) => c.classes))),
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    frameworkErrors,
    // The request gate refuses requests that arrive while the instance drains, with a coded answer.
    return503OnClosing: false,
    schemaController: { compilersFactory: { buildSerializer: answerSerializers() } },
    pluginTimeout: 30_000,
    routerOptions: { maxParamLength },
  })
  const { services, close } = await createServices(config, schema, app.log, options.store)
  app.decorate('config', config)
  app.decorate('schema', schema)
  for (const [name, service] of Object.entries(services)) app.decorate(name, service)
  // Every plugin has registered its handlers by now.
  app.addHook('onReady', async () => {
    await services.jobs.start()
    if (config.workers === 'inline') services.notifications.startUpSweep()
  })
  const probes = new Map<string, () => Promise<string>>([['store', async () => { await services.store.ping(); return services.store.kind }]])
  const redis = services.redis
  if (redis) probes.set('redis', async () => { await redis.ping(); return 'redis' })
  app.decorate('readinessProbes', probes)
  app.addHook('onClose', close)

  try {
    installJsonBodies(app)
    installValidation(app)
    installSchemaGuard(app, new SchemaGuard(services.store, schema.hash))
    app.addSchema(ErrorBody)
    await app.register(docsPlugin, { publicUrl: config.publicUrl, tags })
    await app.register(authPlugin, { config, ...services })
    await app.register(gatePlugin, { limits: config.rateLimits, redis })
    const students = services.studentReferences
    await app.register(responseCachePlugin, { cache: services.responseCache, schema, students })
    await app.register(errorsPlugin)
    await app.register(auditPlugin, { log: services.auditLog })
    for (const plugin of options.plugins ?? []) await app.register(plugin)

    await app.register(healthRoutes)
    await app.register(meRoutes)
    await app.register(mePersonRoutes)
    await app.register(sessionRoutes)
    await app.register(apiKeyRoutes)
    await app.register(samlRoutes, { signIn: services.samlSignIn, customTokens: services.customTokens })
    await app.register(tokenRoutes, { customTokens: services.customTokens })
    await app.register(schemaRoutes)
    await app.register(facultyOptionRoutes)
    const details = schema.class('Degree') && schema.class('RequirementGroup') ? { Degree: degreeDetail(services.requirements, schema) } : {}
    const guards = schema.class('Group') && schema.class('Workflow') ? { Group: new CommitteeGroups(services.records, schema) } : {}
    const writers = schema.class('Publication') && schema.class('RejectedWork') ? { Publication: new PublicationService(services.records, services.people) } : {}
    await app.register(recordRoutes, { details, guards, writers, students })
    await app.register(studentRoutes)
    await app.register(adviseeRoutes)
    await app.register(progressRoutes)
    await app.register(planRoutes)
    await app.register(enrollmentRoutes)
    await app.register(auditRoutes)
    await app.register(cacheAdminRoutes)
    await app.register(userRoutes)
    await app.register(jobRoutes)
    await app.register(queueRoutes)
    await app.register(schedulerRoutes)
    await app.register(campusSyncRoutes)
    await app.register(publicationImportRoutes)
    await app.register(searchRoutes)
    await app.register(workflowRoutes)
    await app.register(notificationRoutes)
    await app.register(notificationPreferenceRoutes)
    await app.register(webhookRoutes)
    await app.register(trashRoutes)
    await app.register(revertRoutes)
    await app.register(backupRoutes)
    await app.register(webAppPlugin, { root: config.webDir })
  } catch (error) {
    // A plugin or route that fails to register (a fault in the schema) must not leave the store, its
    // files and timers open behind the error.
    await close().catch(() => {})
    throw error
  }
  return app
}
