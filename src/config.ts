import { X509Certificate } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

const projectRoot = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../' : '../', import.meta.url))

const Url = (description: string) => Type.String({ pattern: '^(https?|mongodb(\\+srv)?|rediss?)://\\S+$', description })
const HttpUrl = (description: string) => Type.String({ pattern: '^https?://\\S+$', description })
const Duration = Type.String({ pattern: '^[0-9]+(s|m|h|d)?$', description: 'seconds, or a number with s, m, h or d' })

/** The environment the service reads; names from the interface spec are kept as they are. */
export const EnvSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  PUBLIC_URL: Type.Optional(Url('the service root ({base_url})')),
  FRONTEND_URL: Type.Optional(Url('where the SAML callback sends the browser')),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  STORE_CACHE_MB: Type.Integer({ minimum: 1, maximum: 4096, default: 32, description: "the embedded store's cache of parsed documents, in MB of their stored JSON" }),
  SQLITE_SYNCHRONOUS: Type.Union([Type.Literal('full'), Type.Literal('normal')], { default: 'full', description: "the embedded store's durability: full flushes each commit to the disk" }),
  SCHEMA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  WEB_DIR: Type.Optional(Type.String({ minLength: 1, description: 'the built web app (dist/web by default)' })),
  MONGODB_URL: Type.Optional(Url('MongoDB connection string; the embedded store is used when unset')),
  MONGODB_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'adks' }),
  MONGODB_MAX_TIME_MS: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000, description: 'the longest a MongoDB read may run in the server (30000 by default; 0: no bound)' })),
  MONGODB_SLOW_MS: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000, description: 'log every MongoDB command taking at least this many milliseconds, by its shape' })),
  REDIS_URL: Type.Optional(Url('Redis for rate limits, cache and queues')),
  CACHE_REDIS_URL: Type.Optional(Url('Redis for the response cache, if not REDIS_URL')),
  REDIS_PREFIX: Type.String({ pattern: '^[A-Za-z0-9:._-]{1,64}$', default: 'adks:', description: 'prefix of every key this service writes to Redis' }),
  SAML_ENTITY_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'our entity id; {base_url} by default' })),
  SAML_CALLBACK_URL: Type.Optional(HttpUrl('the assertion consumer URL; {base_url}/api/auth/saml/callback by default')),
  SAML_IDP_SSO_URL: Type.Optional(HttpUrl("the identity provider's single sign-on URL")),
  SAML_IDP_LOGOUT_URL: Type.Optional(HttpUrl("the identity provider's logout URL")),
  SAML_IDP_CERT: Type.Optional(Type.String({ minLength: 1, description: "the identity provider's signing certificate(s), PEM (headers optional)" })),
  SAML_IDP_ENTITY_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'the Issuer every assertion must carry' })),
  SAML_KEY_PATH: Type.Optional(Type.String({ minLength: 1, description: 'PEM private key that signs our AuthnRequests' })),
  SAML_CERT_PATH: Type.Optional(Type.String({ minLength: 1, description: 'PEM certificate of that key, published in the metadata' })),
  SAML_SCOPE: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9.-]+(\\s*,\\s*[A-Za-z0-9.-]+)*$', description: 'comma-separated eduPersonPrincipalName scopes (domains) to accept' })),
  CACHE: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on', description: 'the response cache' }),
  CACHE_MEMORY_MB: Type.Integer({ minimum: 1, maximum: 4096, default: 64, description: 'size of the in-process cache' }),
  CACHE_KEY_PREFIX: Type.String({ pattern: '^[A-Za-z0-9:_.-]{1,64}$', default: 'adks:cache:' }),
  CACHE_TIMEOUT_MS: Type.Integer({ minimum: 10, maximum: 30_000, default: 300, description: 'how long a request waits on a cache Redis command before it goes on without the cache' }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32, description: 'HS256 secret, at least 32 characters' })),
  JWT_PRIVATE_KEY_PATH: Type.Optional(Type.String({ minLength: 1 })),
  JWT_PUBLIC_KEY_PATH: Type.Optional(Type.String({ minLength: 1 })),
  SECRETS_KEY: Type.Optional(Type.String({ minLength: 1, description: '32 random bytes, as 64 hex digits or base64: the key stored secrets are encrypted with' })),
  ID_TOKEN_TTL: Type.String({ ...Duration, default: '1h' }),
  BODY_LIMIT: Type.Integer({ minimum: 1024, maximum: 16 * 1024 * 1024, default: 1024 * 1024 }),
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 10_000 }),
  TRUST_PROXY: Type.Optional(Type.String({ description: 'comma-separated addresses or CIDRs of trusted proxies' })),
  SEARCH_REFRESH_INTERVAL: Type.Optional(Type.String({ ...Duration, description: 'full rebuild of the search index; 0 turns it off' })),
  RATE_LIMIT_WINDOW: Type.String({ ...Duration, default: '1m' }),
  RATE_LIMIT_ANONYMOUS: Type.Integer({ minimum: 1, default: 100 }),
  RATE_LIMIT_USER: Type.Integer({ minimum: 1, default: 1000 }),
  RATE_LIMIT_KEY_READ: Type.Integer({ minimum: 1, default: 100 }),
  RATE_LIMIT_KEY_WRITE: Type.Integer({ minimum: 1, default: 20 }),
  RATE_LIMIT_NAMESPACE: Type.String({ pattern: '^[A-Za-z0-9:_-]{1,64}$', default: 'adks:rate:', description: 'prefix of the rate-limit counters in Redis' }),
  WORKERS: Type.Optional(Type.Union([Type.Literal('inline'), Type.Literal('off')], { description: 'run background jobs in the API process; inline without REDIS_URL, off with it (npm run worker runs them)' })),
  OPENALEX_URL: Type.Optional(HttpUrl('the OpenAlex API publications are imported from; https://api.openalex.org by default')),
  OPENALEX_API_KEY: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'sent to OpenAlex as api_key' })),
  OPENALEX_MAILTO: Type.Optional(Type.String({ minLength: 3, maxLength: 200, description: 'sent to OpenAlex as mailto (its polite pool)' })),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://\\S+$', description: 'the SMTP server emails are sent through (smtp:// or smtps://, credentials in the URL); unset: emails are recorded as not sent' })),
  MAIL_FROM: Type.String({ minLength: 3, maxLength: 200, pattern: '^[^\\r\\n]+$', default: 'Department notifications <notifications@localhost>', description: 'the From of every email' }),
  DIGEST_HOUR: Type.Integer({ minimum: 0, maximum: 23, default: 7, description: 'the hour the daily and weekly digests are sent, in TIME_ZONE' }),
  TIME_ZONE: Type.String({ minLength: 1, maxLength: 64, default: 'UTC', description: "the department's IANA time zone (digest hour, digest periods)" }),
  WEBHOOK_ALLOW_PRIVATE: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false', description: 'let webhooks reach private, loopback and link-local addresses (tests, campus-internal receivers)' }),
  WEBHOOK_RETRY_SCHEDULE: Type.String({ pattern: '^[0-9]+[smhd]?(,[0-9]+[smhd]?){0,19}$', default: '5s,5m,30m,2h,5h,10h,10h', description: 'the waits before each retry of a failed webhook delivery' }),
  NOTIFICATION_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30, description: 'days delivery records are kept' }),
  KEY_USAGE_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 90, description: 'days the worker keeps API key usage entries' }),
  HISTORY_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 36500, default: 3650, description: "days records' revisions are kept (each record's latest always is)" }),
  SCHEMA_MIGRATE: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('off')], { description: 'auto: start-up applies pending schema migrations (after a backup); off: start-up stops and names them (npm run schema:migrate applies them). auto by default outside production' })),
  BACKUP_KEY: Type.Optional(Type.String({ minLength: 1, description: '32 random bytes, as 64 hex digits or base64: the key backups are encrypted with (SECRETS_KEY when unset)' })),
  BACKUP_DIR: Type.Optional(Type.String({ minLength: 1, description: 'where scheduled and requested backups are written (DATA_DIR/backups by default)' })),
  BACKUP_KEEP: Type.Integer({ minimum: 1, maximum: 1000, default: 14, description: 'backups kept in BACKUP_DIR; the oldest beyond this are removed after each new one' }),
  BACKUP_EVERY: Type.String({ ...Duration, default: '24h', description: 'how often the scheduled backup runs; 0 turns it off' }),
  LOG_LEVEL: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), { default: 'info' }),
})

export type Env = Static<typeof EnvSchema>

/** Single sign-on settings; present only when the identity provider is configured. */
export interface SamlSettings {
  readonly entityId: string
  readonly callbackUrl: string
  readonly idpSsoUrl: string
  readonly idpLogoutUrl?: string
  readonly idpEntityId?: string
  /** PEM certificates the assertion signature may verify with (several while the IdP rotates keys). */
  readonly idpCerts: readonly string[]
  readonly keyPath?: string
  readonly certPath?: string
  /** Accepted eduPersonPrincipalName scopes, lower case; empty accepts any the IdP asserts. */
  readonly scopes: readonly string[]
}

/** Requests allowed per window, by kind of caller (http/rate-limit.ts counts them). */
export interface RateLimits {
  readonly windowMs: number
  readonly anonymous: number
  readonly user: number
  readonly keyRead: number
  readonly keyWrite: number
  /** Prefix of the counters in Redis, so deployments (or test runs) sharing one Redis keep apart. */
  readonly namespace: string
}

export interface Config {
  readonly nodeEnv: Env['NODE_ENV']
  readonly port: number
  readonly host: string
  readonly publicUrl: string
  readonly frontendUrl: string
  readonly dataDir: string
  /** The embedded store's cache of parsed documents, in bytes of their JSON, and its durability. */
  readonly embedded: { readonly cacheBytes: number; readonly synchronous: 'full' | 'normal' }
  readonly schemaDir: string
  /** The built web app served at / (`npm run build:web`). */
  readonly webDir: string
  readonly mongodbUrl?: string
  readonly mongodbDb: string
  /** The longest a MongoDB read may run in the server; unset, the adapter's default; 0, no bound. */
  readonly mongodbMaxTimeMs?: number
  /** Commands to MongoDB taking at least this many milliseconds are logged; unset, none are. */
  readonly mongodbSlowMs?: number
  readonly redisUrl?: string
  readonly cacheRedisUrl?: string
  readonly redisPrefix: string
  readonly saml?: SamlSettings
  readonly cache: {
    readonly enabled: boolean
    /** Bound of the in-process cache, used when no cache Redis is configured. */
    readonly memoryBytes: number
    /** Every key the cache writes in Redis starts with it; nothing else is counted or deleted. */
    readonly keyPrefix: string
    /** A cache Redis command must answer within this, or the request goes on without the cache. */
    readonly timeoutMs: number
  }
  readonly jwt: {
    readonly secret?: string
    readonly privateKeyPath?: string
    readonly publicKeyPath?: string
    readonly ttlSeconds: number
    readonly issuer: string
    readonly audience: string
  }
  /** The AES-256 key of secrets kept in the store (src/auth/secret-box.ts); unset, one is generated into dataDir outside production. */
  readonly secretsKey?: Buffer
  readonly bodyLimit: number
  readonly shutdownGraceMs: number
  readonly trustProxy: string[] | false
  readonly rateLimits: RateLimits
  /** How often the search index is rebuilt from the store (0: never); unset, the store's kind decides. */
  readonly searchRefreshMs?: number
  readonly keyUsageRetentionDays: number
  readonly historyRetentionDays: number
  /** Whether start-up applies pending schema migrations (docs/schemas.md). */
  readonly schemaMigrate: 'auto' | 'off'
  readonly backups: {
    /** BACKUP_KEY, else SECRETS_KEY: what backups are encrypted with; absent, only a development key or --no-encrypt remain. */
    readonly key?: { readonly bytes: Buffer; readonly source: 'BACKUP_KEY' | 'SECRETS_KEY' }
    readonly dir: string
    readonly keep: number
    /** Milliseconds between scheduled backups; 0: none are scheduled. */
    readonly everyMs: number
  }
  readonly notifications: NotificationSettings
  /** Where publications are imported from (src/publications/openalex). */
  readonly openalex: { readonly baseUrl?: string; readonly apiKey?: string; readonly mailto?: string }
  /** Whether this process runs background jobs (see src/jobs/open.ts). */
  readonly workers: 'inline' | 'off'
  readonly logLevel: string
}

/** Email, digests and webhooks (docs/notifications.md). */
export interface NotificationSettings {
  /** Unset: emails are recorded as not sent. */
  readonly smtpUrl?: string
  readonly mailFrom: string
  readonly digestHour: number
  readonly timeZone: string
  readonly webhookAllowPrivate: boolean
  /** Milliseconds before each retry of a failed webhook delivery. */
  readonly webhookRetryDelaysMs: readonly number[]
  readonly retentionDays: number
}

export class ConfigError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`configuration: ${variable} ${detail}`)
    this.name = 'ConfigError'
  }
}

const units: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 }

export function seconds(duration: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(duration)!
  return Number(match[1]) * (units[match[2] || 's'] ?? 1)
}

/**
 * The certificates in SAML_IDP_CERT: one or more PEM blocks, or the bare base64 body of one (as IdP
 * metadata shows it). Each must parse as X.509.
 */
export function pemCertificates(text: string): string[] {
  // A PEM pasted into a one-line variable often arrives with literal \n escapes.
  text = text.replace(/\\n/g, '\n')
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)
  const bodies = blocks ? blocks.map((b) => b.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')) : [text]
  return bodies.map((body) => {
    const base64 = body.replace(/\s+/g, '')
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw new ConfigError('SAML_IDP_CERT', 'is not a PEM certificate')
    const pem = `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`
    try {
      new X509Certificate(pem)
    } catch {
      throw new ConfigError('SAML_IDP_CERT', 'does not parse as an X.509 certificate')
    }
    return pem
  })
}

function samlSettings(e: Env, publicUrl: string): SamlSettings | undefined {
  if (!e.SAML_IDP_SSO_URL && !e.SAML_IDP_CERT) return undefined
  if (!e.SAML_IDP_SSO_URL) throw new ConfigError('SAML_IDP_SSO_URL', 'is required when SAML_IDP_CERT is set')
  if (!e.SAML_IDP_CERT) throw new ConfigError('SAML_IDP_CERT', 'is required when SAML_IDP_SSO_URL is set')
  if (Boolean(e.SAML_KEY_PATH) !== Boolean(e.SAML_CERT_PATH)) {
    throw new ConfigError(e.SAML_KEY_PATH ? 'SAML_CERT_PATH' : 'SAML_KEY_PATH', 'must be set together with its pair')
  }
  return {
    entityId: e.SAML_ENTITY_ID ?? publicUrl,
    callbackUrl: e.SAML_CALLBACK_URL ?? `${publicUrl}/api/auth/saml/callback`,
    idpSsoUrl: e.SAML_IDP_SSO_URL,
    ...(e.SAML_IDP_LOGOUT_URL ? { idpLogoutUrl: e.SAML_IDP_LOGOUT_URL } : {}),
    ...(e.SAML_IDP_ENTITY_ID ? { idpEntityId: e.SAML_IDP_ENTITY_ID } : {}),
    idpCerts: pemCertificates(e.SAML_IDP_CERT),
    ...(e.SAML_KEY_PATH ? { keyPath: e.SAML_KEY_PATH, certPath: e.SAML_CERT_PATH! } : {}),
    scopes: e.SAML_SCOPE ? e.SAML_SCOPE.split(',').map((s) => s.trim().toLowerCase()) : [],
  }
}

/** A key written as 64 hex digits or as base64 (or base64url) of 32 bytes; undefined for anything else. */
export function secretsKeyBytes(text: string): Buffer | undefined {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : undefined
  return key?.length === 32 ? key : undefined
}

/** Reads and checks the environment; the first bad variable stops start-up with a line naming it. */
export function loadConfig(source: Readonly<Record<string, string | undefined>> = process.env): Config {
  const known = Object.keys(EnvSchema.properties)
  const raw: Record<string, unknown> = {}
  for (const name of known) {
    const value = source[name]
    if (value !== undefined && value !== '') raw[name] = value
  }
  // Value.Convert reads integers leniently ("3000.5" as 3000, "1e3" as 1, "0x10" as 16): only digits pass.
  for (const [name, schema] of Object.entries(EnvSchema.properties)) {
    const value = raw[name]
    if ((schema as { type?: string }).type === 'integer' && value !== undefined && !/^[0-9]+$/.test(String(value))) {
      throw new ConfigError(name, `is invalid (${JSON.stringify(value)}): Expected a whole number written in digits`)
    }
  }
  const env = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw)) as Record<string, unknown>
  const [first] = Value.Errors(EnvSchema, env)
  if (first) {
    const variable = first.path.replace(/^\//, '') || 'environment'
    throw new ConfigError(variable, `is invalid (${JSON.stringify(source[variable] ?? '')}): ${first.message}`)
  }
  const e = env as Env
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET && !e.JWT_PRIVATE_KEY_PATH) {
    throw new ConfigError('JWT_SECRET', 'is required in production (or JWT_PRIVATE_KEY_PATH and JWT_PUBLIC_KEY_PATH)')
  }
  // A generated key would differ between instances and vanish with a container: production names its own.
  if (e.NODE_ENV === 'production' && !e.SECRETS_KEY) {
    throw new ConfigError('SECRETS_KEY', 'is required in production (32 random bytes as 64 hex digits or base64, e.g. `openssl rand -base64 32`): it encrypts the secrets kept in the store')
  }
  try {
    new Intl.DateTimeFormat('en', { timeZone: e.TIME_ZONE })
  } catch {
    throw new ConfigError('TIME_ZONE', `is invalid (${JSON.stringify(e.TIME_ZONE)}): not an IANA time zone name such as America/Chicago`)
  }
  const secretsKey = e.SECRETS_KEY === undefined ? undefined : secretsKeyBytes(e.SECRETS_KEY.trim())
  if (e.SECRETS_KEY !== undefined && !secretsKey) throw new ConfigError('SECRETS_KEY', 'must be 32 bytes written as 64 hex digits or in base64 (e.g. `openssl rand -base64 32`)')
  const backupKey = e.BACKUP_KEY === undefined ? undefined : secretsKeyBytes(e.BACKUP_KEY.trim())
  if (e.BACKUP_KEY !== undefined && !backupKey) throw new ConfigError('BACKUP_KEY', 'must be 32 bytes written as 64 hex digits or in base64 (e.g. `openssl rand -base64 32`)')
  const dataDir = resolve(e.DATA_DIR)
  if (Boolean(e.JWT_PRIVATE_KEY_PATH) !== Boolean(e.JWT_PUBLIC_KEY_PATH)) {
    throw new ConfigError(e.JWT_PRIVATE_KEY_PATH ? 'JWT_PUBLIC_KEY_PATH' : 'JWT_PRIVATE_KEY_PATH', 'must be set together with its pair')
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '')
  const saml = samlSettings(e, publicUrl)
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    frontendUrl: (e.FRONTEND_URL ?? publicUrl).replace(/\/+$/, ''),
    dataDir,
    embedded: { cacheBytes: e.STORE_CACHE_MB * 1024 * 1024, synchronous: e.SQLITE_SYNCHRONOUS },
    schemaDir: e.SCHEMA_DIR ? resolve(e.SCHEMA_DIR) : resolve(projectRoot, 'schema'),
    webDir: e.WEB_DIR ? resolve(e.WEB_DIR) : resolve(projectRoot, 'dist/web'),
    ...(e.MONGODB_URL ? { mongodbUrl: e.MONGODB_URL } : {}),
    mongodbDb: e.MONGODB_DB,
    ...(e.MONGODB_MAX_TIME_MS === undefined ? {} : { mongodbMaxTimeMs: e.MONGODB_MAX_TIME_MS }),
    ...(e.MONGODB_SLOW_MS === undefined ? {} : { mongodbSlowMs: e.MONGODB_SLOW_MS }),
    ...(e.REDIS_URL ? { redisUrl: e.REDIS_URL } : {}),
    ...(e.CACHE_REDIS_URL ?? e.REDIS_URL ? { cacheRedisUrl: e.CACHE_REDIS_URL ?? e.REDIS_URL } : {}),
    redisPrefix: e.REDIS_PREFIX,
    ...(saml ? { saml } : {}),
    cache: { enabled: e.CACHE === 'on', memoryBytes: e.CACHE_MEMORY_MB * 1024 * 1024, keyPrefix: e.CACHE_KEY_PREFIX, timeoutMs: e.CACHE_TIMEOUT_MS },
    jwt: {
      ...(e.JWT_SECRET ? { secret: e.JWT_SECRET } : {}),
      ...(e.JWT_PRIVATE_KEY_PATH ? { privateKeyPath: e.JWT_PRIVATE_KEY_PATH, publicKeyPath: e.JWT_PUBLIC_KEY_PATH! } : {}),
      ttlSeconds: seconds(e.ID_TOKEN_TTL),
      issuer: publicUrl,
      audience: `${publicUrl}/api`,
    },
    ...(secretsKey ? { secretsKey } : {}),
    bodyLimit: e.BODY_LIMIT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    trustProxy: e.TRUST_PROXY ? e.TRUST_PROXY.split(',').map((s) => s.trim()).filter(Boolean) : false,
    rateLimits: {
      windowMs: seconds(e.RATE_LIMIT_WINDOW) * 1000,
      anonymous: e.RATE_LIMIT_ANONYMOUS,
      user: e.RATE_LIMIT_USER,
      keyRead: e.RATE_LIMIT_KEY_READ,
      keyWrite: e.RATE_LIMIT_KEY_WRITE,
      namespace: e.RATE_LIMIT_NAMESPACE,
    },
    ...(e.SEARCH_REFRESH_INTERVAL ? { searchRefreshMs: seconds(e.SEARCH_REFRESH_INTERVAL) * 1000 } : {}),
    keyUsageRetentionDays: e.KEY_USAGE_RETENTION_DAYS,
    historyRetentionDays: e.HISTORY_RETENTION_DAYS,
    schemaMigrate: e.SCHEMA_MIGRATE ?? (e.NODE_ENV === 'production' ? 'off' : 'auto'),
    backups: {
      ...(backupKey ? { key: { bytes: backupKey, source: 'BACKUP_KEY' as const } } : secretsKey ? { key: { bytes: secretsKey, source: 'SECRETS_KEY' as const } } : {}),
      dir: e.BACKUP_DIR ? resolve(e.BACKUP_DIR) : join(dataDir, 'backups'),
      keep: e.BACKUP_KEEP,
      everyMs: seconds(e.BACKUP_EVERY) * 1000,
    },
    notifications: {
      ...(e.SMTP_URL ? { smtpUrl: e.SMTP_URL } : {}),
      mailFrom: e.MAIL_FROM, digestHour: e.DIGEST_HOUR, timeZone: e.TIME_ZONE, webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
      webhookRetryDelaysMs: e.WEBHOOK_RETRY_SCHEDULE.split(',').map((d) => seconds(d) * 1000), retentionDays: e.NOTIFICATION_RETENTION_DAYS,
    },
    openalex: {
      ...(e.OPENALEX_URL ? { baseUrl: e.OPENALEX_URL } : {}),
      ...(e.OPENALEX_API_KEY ? { apiKey: e.OPENALEX_API_KEY } : {}),
      ...(e.OPENALEX_MAILTO ? { mailto: e.OPENALEX_MAILTO } : {}),
    },
    workers: e.WORKERS ?? (e.REDIS_URL ? 'off' : 'inline'),
    logLevel: e.LOG_LEVEL,
  }
}
