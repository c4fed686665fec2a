import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import { ApiKeyService } from './auth/api-keys/service.js'
import { UsageLog, usageMaintenance } from './auth/api-keys/usage.js'
import { CustomTokens } from './auth/custom-token.js'
import { signingKeys, type SigningKeys } from './auth/keys.js'
import { secretBox, type SecretBox } from './auth/secret-box.js'
import { oneTimeClaims, type OneTimeClaims } from './auth/one-time.js'
import type { SamlSignIn } from './auth/saml/service.js'
import { dropRetiredPermissions } from './auth/retired-permissions.js'
import { revocationMaintenance, Revocations } from './auth/revocations.js'
import { UserService } from './auth/users.js'
import { createResponseCache, type ResponseCache } from './cache/response-cache.js'
import { joinCluster } from './cluster/join.js'
import type { Config } from './config.js'
import { AuditLog, auditMaintenance } from './privacy/audit-log.js'
import { installRequirementChecks } from './degrees/requirement-checks.js'
import { installCourseCodeCheck } from './records/course-code-check.js'
import { StudentPlans } from './degrees/plans.js'
import { DegreeProgress } from './degrees/progress.js'
import { DegreeRequirements } from './degrees/requirements.js'
import { Enrollments } from './privacy/enrollments.js'
import { People } from './privacy/relations.js'
import { ProtectedAccess } from './privacy/student-access.js'
import { StudentReferences } from './privacy/student-references.js'
import { registerPublicationJobs } from './publications/jobs.js'
import { RecordService } from './records/service.js'
import { connectRequestPathRedis } from './redis/client.js'
import { maintenanceHandlers, type MaintenanceJobs } from './jobs/maintenance.js'
import { historyCollections, historyMaintenance, pendingIndex, sweepHistory } from './history/maintenance.js'
import { HistoryReader } from './history/reader.js'
import { openJobs } from './jobs/open.js'
import type { JobDriver } from './jobs/port.js'
import type { CompiledSchema } from './schema/index.js'
import { SearchService } from './search/service.js'
import { checkStoredClientSecret } from './campus-sync/client-secret.js'
import { registerCampusSyncJobs } from './campus-sync/jobs.js'
import { openStore } from './store/open.js'
import { ensureStoreIndexes, systemCollections } from './indexes.js'
import { evolveSchema } from './migrations/reconcile.js'
import { loadMigrations } from './migrations/apply.js'
import { backupBeforeMigrating } from './backups/before-migrating.js'
import type { Store } from './store/port.js'
import { wireOutcomes, type OutcomeSinks } from './notifications/outcomes.js'
import { registerRevertJobs } from './reverts/jobs.js'
import { registerBackupJobs } from './backups/jobs.js'
import { Backups } from './backups/service.js'
import { systemActor, type Actor } from './actor.js'
import { Notifications } from './notifications/service.js'
import { overdueMaintenance } from './workflows/overdue.js'
import { Approvers } from './workflows/approvers.js'
import { instanceIndexes, instancesCollection } from './workflows/persistence.js'
import { WorkflowService } from './workflows/service.js'

/**
 * Every service, each built once by `createServices` and decorated on the app under this name (app.ts);
 * the worker runs the same set.
 */
export interface Services {
  readonly store: Store
  readonly keys: SigningKeys
  /** Seals and opens the secrets kept in the store (SECRETS_KEY). */
  readonly secrets: SecretBox
  readonly records: RecordService
  /** Records' pasts: history pages, `as_of`, versions to restore, the trash (docs/history.md). */
  readonly history: HistoryReader
  readonly users: UserService
  readonly revocations: Revocations
  readonly apiKeys: ApiKeyService
  readonly usageLog: UsageLog
  readonly people: People
  readonly auditLog: AuditLog
  readonly enrollments: Enrollments
  /** Leaves references to students out of answers for callers who may not see them (docs/privacy.md). */
  readonly studentReferences: StudentReferences
  readonly requirements: DegreeRequirements
  readonly progress: DegreeProgress
  readonly plans: StudentPlans
  readonly protectedAccess: ProtectedAccess
  /** The request-path Redis client (rate limits, sign-in state, one-time claims), or null when REDIS_URL is not set. */
  readonly redis: Redis | null
  /** Once-only claims shared by every instance (Redis when configured, else the store). */
  readonly oneTime: OneTimeClaims
  readonly customTokens: CustomTokens
  /** Single sign-on, when SAML is configured. */
  readonly samlSignIn: SamlSignIn | null
  readonly responseCache: ResponseCache
  /** Not `search`: on the app that name is Fastify's shorthand for SEARCH routes. */
  readonly searchService: SearchService
  readonly workflows: WorkflowService
  /** Background jobs (docs/operations.md): BullMQ with REDIS_URL, else the embedded driver; handlers are registered before the app is ready, which starts the driver. */
  readonly jobs: JobDriver
  /** The maintenance queue's jobs, each contributed by its feature; the worker (or the API on the embedded driver) schedules them. */
  readonly maintenance: MaintenanceJobs
  /** In-app notifications, email and webhooks, fed by the workflow outbox and outcome events (docs/notifications.md). */
  readonly notifications: Notifications
  /** Where features write their outcome events. */
  readonly outcomes: OutcomeSinks
  /** Backups of the store into BACKUP_DIR, as a job, listed and verified (docs/operations.md). */
  readonly backups: Backups
}

export interface OpenServices {
  readonly services: Services
  /** Releases the services in order; the store too unless it was given. */
  close(): Promise<void>
}

/** Single sign-on, loaded only when configured: node-saml and its XML stack are slow to import. */
async function samlFor(settings: NonNullable<Config['saml']>, redis: Redis | null, prefix: string, oneTime: OneTimeClaims): Promise<SamlSignIn> {
  const [{ createSamlSignIn }, { MemorySignInState, RedisSignInState }] = await Promise.all([import('./auth/saml/service.js'), import('./auth/saml/state.js')])
  const state = redis ? new RedisSignInState(redis, prefix) : new MemorySignInState()
  return createSamlSignIn(settings, state, oneTime).catch((error: unknown) => { redis?.disconnect(); throw error })
}

/** Opens the store (unless given one) and builds the services on it; `close` releases them in order. */
export async function createServices(config: Config, schema: CompiledSchema, log: FastifyBaseLogger, given?: Store): Promise<OpenServices> {
  const names = [...schema.collections.map((c) => c.name), ...Object.keys(systemCollections)]
  const opened = given ?? await openStore(config, names, log)
  try {
    return await servicesOn(opened, config, schema, log, given)
  } catch (error) {
    // A start that fails after the store opened (a placeholder secret, a broken schema) lets its data
    // directory go, so that the same process, a test or the next attempt, can open it again.
    if (!given) await opened.close().catch(() => {})
    throw error
  }
}

async function servicesOn(opened: Store, config: Config, schema: CompiledSchema, log: FastifyBaseLogger, given?: Store): Promise<OpenServices> {
  // Every service writes through the cluster's store, so other instances hear of every write.
  const cluster = await joinCluster(opened, config.redisUrl, config.redisPrefix, log)
  const store = cluster.store
  await ensureStoreIndexes(store, schema)
  const keys = await signingKeys(config)
  const secrets = await secretBox(config)
  const records = new RecordService(store, schema)
  if (!records.history.transactional) {
    // Without transactions, writes carry their revision until it is written; what a crash left is written before serving.
    for (const name of historyCollections(schema)) await store.ensureIndexes(name, [pendingIndex])
    await sweepHistory(store, schema, records.history, new Date())
  }
  // Pending migrations apply (after a backup) where allowed, and a changed class schema applies only if
  // no stored record breaks; otherwise start-up stops here with the report.
  await evolveSchema(store, schema, records, {
    migrations: await loadMigrations(config.schemaDir),
    migrate: config.schemaMigrate === 'auto',
    backup: (was) => backupBeforeMigrating(store, was, config),
  })
  const history = new HistoryReader(store)
  installRequirementChecks(records, schema)
  installCourseCodeCheck(records, schema)
  await checkStoredClientSecret(records, schema, secrets, systemActor, log)
  await dropRetiredPermissions(records, schema, systemActor, log)
  const users = new UserService(store, records)
  const revocations = new Revocations(store)
  const apiKeys = new ApiKeyService(store, records, users)
  const usageLog = new UsageLog(store, log)
  const people = new People(records, schema)
  const auditLog = new AuditLog(store)
  const enrollments = new Enrollments(records, schema)
  const studentReferences = new StudentReferences(schema, records, people)
  const requirements = new DegreeRequirements(records, schema)
  const progress = new DegreeProgress(records, schema, enrollments, requirements)
  const protectedAccess = new ProtectedAccess(records, people, schema)
  // A periodic rebuild on MongoDB also catches writes made outside the service; other instances' are noticed.
  const searchService = new SearchService(records, schema, log, config.searchRefreshMs ?? (store.kind === 'mongodb' ? 60_000 : 0), cluster.notices)
  await searchService.start()
  // The command timeout counts from sending to handling the reply, so it also measures this process's
  // own event-loop lag; ten concurrent SAML callbacks alone lag it by about half a second.
  const redis = config.redisUrl ? await connectRequestPathRedis(config.redisUrl, 'api', { commandTimeout: 3000 }) : null
  const oneTime = oneTimeClaims(store, redis, config.redisPrefix)
  const samlSignIn = config.saml ? await samlFor(config.saml, redis, config.redisPrefix, oneTime) : null
  const customTokens = new CustomTokens(keys, config, oneTime)
  await store.ensureIndexes(instancesCollection, instanceIndexes)
  const workflows = new WorkflowService({ store, records, schema, people })
  const plans = new StudentPlans(records, schema, enrollments, workflows.planReviews)
  // Before serving: the seeded definitions exist, and no entity is left out of step with its instance
  // (a schema without workflow classes, as tests of the schema compiler use, has neither to do).
  if (schema.class('Workflow')) {
    const startUp: Actor = { id: 'start-up', name: 'Service start-up', via: 'start-up' }
    await workflows.seed(startUp)
    await workflows.repair(startUp)
  }
  const responseCache = await createResponseCache(config, log, cluster.notices ?? undefined)
  records.onChange((change) => responseCache.invalidate(change.collection))
  const jobs = await openJobs(config, store, log, { runJobs: config.workers === 'inline', closeGraceMs: Math.floor(config.shutdownGraceMs / 2) })
  const approvers = new Approvers(store, records, schema)
  const notifications = await Notifications.open({ store, records, schema, config, jobs, secrets, log, admins: () => approvers.admins() }, workflows.instancesStore)
  const outcomes = wireOutcomes(notifications.events, jobs, () => approvers.admins())
  const maintenance = {
    ...revocationMaintenance(revocations), ...usageMaintenance(store, config.keyUsageRetentionDays), ...auditMaintenance(auditLog, log), ...overdueMaintenance(workflows.overdue),
    ...notifications.maintenance, ...historyMaintenance(store, schema, records.history, config.historyRetentionDays),
  }
  jobs.register('maintenance', maintenanceHandlers(maintenance))
  const invalidate = (collection: string) => responseCache.invalidate(collection)
  registerCampusSyncJobs(jobs, { records, schema, enrollments, auditLog, secrets, events: outcomes.syncs })
  registerPublicationJobs(jobs, { records, schema, openalex: config.openalex, invalidate, events: outcomes.imports })
  registerRevertJobs(jobs, { records, history, schema, events: outcomes.records })
  const backups = new Backups({ store, schema, config, jobs, events: outcomes.backups })
  registerBackupJobs(jobs, { store, schema, config, events: outcomes.backups })
  return {
    services: {
      store, keys, secrets, records, history, users, revocations, apiKeys, usageLog, people, auditLog, enrollments, studentReferences, requirements, progress, plans,
      protectedAccess, redis, oneTime, customTokens, samlSignIn, responseCache, searchService, workflows, jobs, maintenance, notifications, outcomes, backups,
    },
    async close() {
      await notifications.relay.idle()
      await jobs.close()
      notifications.close()
      searchService.close()
      await usageLog.close()
      revocations.close()
      await responseCache.close()
      if (redis) await redis.quit().catch(() => redis.disconnect())
      await cluster.close()
      if (!given) await store.close()
    },
  }
}
