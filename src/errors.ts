import createError, { type FastifyError } from '@fastify/error'

interface Condition {
  readonly status: number
  /** What the code means to a client; docs/errors.md shows the same sentence. */
  readonly condition: string
  /** Sent with every answer of the code. */
  readonly headers?: Readonly<Record<string, string>>
}

const bearer = { 'www-authenticate': 'Bearer' }
const retrySoon = { 'retry-after': '5' }

/**
 * Every condition an error answer reports (docs/errors.md), one stable code each, with its status. Clients
 * match on the code, never on the message. docs/errors.md lists the same table; a test holds the two
 * together, and the test app fails any test whose route answers a 4xx or 5xx without a listed code.
 */
export const errorTable = {
  ADKS_VALIDATION_FAILED: { status: 400, condition: 'A path parameter, query parameter or body field is missing or breaks a rule; the message names the field' },
  ADKS_REFERENCE_NOT_FOUND: { status: 400, condition: 'A field refers to a record that does not exist; the message names the field' },
  ADKS_BODY_MALFORMED: { status: 400, condition: 'The body is not valid JSON, is empty under a JSON Content-Type, disagrees with Content-Length, or carries a prototype-polluting key' },
  ADKS_URL_MALFORMED: { status: 400, condition: 'The path has broken percent-encoding or is not a URL' },
  ADKS_CREDENTIALS_AMBIGUOUS: { status: 400, condition: 'Both a bearer token and an API key were sent' },
  ADKS_BAD_REQUEST: { status: 400, condition: 'The HTTP layer refused the request for a reason no other code names (the status is its own 4xx)' },
  ADKS_SAML_MALFORMED: { status: 400, condition: 'The sign-in post carries no SAMLResponse, or one that is not base64-encoded XML without a DOCTYPE' },
  ADKS_AUTH_REQUIRED: { status: 401, condition: 'The route needs a credential (a bearer ID token, or an API key where keys are accepted) and none was sent', headers: bearer },
  ADKS_TOKEN_INVALID: { status: 401, condition: 'The bearer token is malformed, expired, revoked, or its user no longer exists', headers: bearer },
  ADKS_API_KEY_INVALID: { status: 401, condition: 'The API key is unknown, revoked or expired', headers: bearer },
  ADKS_CUSTOM_TOKEN_INVALID: { status: 401, condition: 'The one-time custom token from single sign-on is invalid, expired or already used', headers: bearer },
  ADKS_SAML_INVALID: { status: 401, condition: 'The SAML response failed validation (issuer, audience, recipient, time, replay, or a certificate that is not the configured one)' },
  ADKS_SAML_SIGNATURE_INVALID: { status: 401, condition: 'The SAML response is not signed, its signature does not verify, or it uses an algorithm not accepted' },
  ADKS_SAML_USER_UNUSABLE: { status: 401, condition: 'The SAML assertion verified, but names no usable user (no NetID or mail, or the user could not be stored)' },
  ADKS_PERMISSION_DENIED: { status: 403, condition: 'The caller is identified but lacks the role or permission this action needs; the message names it' },
  ADKS_API_KEY_NOT_ALLOWED: { status: 403, condition: 'An API key was sent to a route, or for an action, that API keys cannot use' },
  ADKS_STUDENT_ACCESS_DENIED: { status: 403, condition: "The student's protected records are only for the student, their advisors and admins" },
  ADKS_RECORD_NOT_FOUND: { status: 404, condition: 'No record, user, key, plan or workflow instance has this id, or the caller may not see it' },
  ADKS_ROUTE_NOT_FOUND: { status: 404, condition: 'No route has this method and path' },
  ADKS_SCHEMA_NOT_FOUND: { status: 404, condition: 'The class schema has no class or enum of this name' },
  ADKS_QUEUE_NOT_FOUND: { status: 404, condition: 'No job queue has this name' },
  ADKS_JOB_NOT_FOUND: { status: 404, condition: 'No job has this id (in this queue)' },
  ADKS_SCHEDULE_NOT_FOUND: { status: 404, condition: 'No recurring job (scheduler) has this id, or none is scheduled' },
  ADKS_BACKUP_NOT_FOUND: { status: 404, condition: 'No backup of this name is in BACKUP_DIR' },
  ADKS_IMPORT_NOT_FOUND: { status: 404, condition: "The person's publications have not been imported yet" },
  ADKS_DEGREE_NOT_CHOSEN: { status: 404, condition: 'The student has no degree to audit; name one with the degree query parameter' },
  ADKS_PERSON_NOT_LINKED: { status: 404, condition: 'The signed-in user has no Person record (none has their campus id or email), so there is no own record to read or edit' },
  ADKS_SSO_NOT_CONFIGURED: { status: 404, condition: 'Single sign-on (SAML) is not configured on this service' },
  ADKS_VERSION_CONFLICT: { status: 409, condition: 'The record is no longer at the version the request names (If-Match or _version); read it again' },
  ADKS_WRITE_CONTENDED: { status: 409, condition: 'Others changed the record (or the plan being submitted) too often while this write was tried; try again' },
  ADKS_DUPLICATE_RECORD: { status: 409, condition: 'Another record already has this id or unique field' },
  ADKS_RECORD_REFERENCED: { status: 409, condition: 'Other records still refer to the record being deleted' },
  ADKS_RESTORE_CONFLICT: { status: 409, condition: 'A restore would bring back a reference to a record that no longer exists, or a unique value or id another record now holds; the message names it' },
  ADKS_PLAN_UNDER_REVIEW: { status: 409, condition: 'The student plan is in (or has) a major-plan approval, so it cannot change or be reviewed again now' },
  ADKS_WORKFLOW_CONFLICT: { status: 409, condition: 'The workflow instance or its entity is not in a state that allows this action (or the domain has no workflow); the body carries them as they are now' },
  ADKS_API_KEY_ACTIVE: { status: 409, condition: 'The API key must be revoked before it is deleted' },
  ADKS_JOB_NOT_FAILED: { status: 409, condition: 'Only a failed job can be retried' },
  ADKS_BODY_TOO_LARGE: { status: 413, condition: "The body is larger than the route's limit" },
  ADKS_URL_TOO_LONG: { status: 414, condition: 'A path parameter is longer than the router accepts' },
  ADKS_MEDIA_TYPE_UNSUPPORTED: { status: 415, condition: 'The body has a Content-Type the route does not take (JSON, or a form post for single sign-on)' },
  ADKS_BACKUP_INVALID: { status: 422, condition: 'The backup file does not check: damaged, truncated, altered, not a backup, of a newer format, or under a key this service does not hold; the message names which' },
  ADKS_RATE_LIMITED: { status: 429, condition: "The caller's rate limit is spent; X-RateLimit-Reset says when it refills" },
  ADKS_INTERNAL: { status: 500, condition: 'An unexpected fault; the message carries the request id to quote' },
  ADKS_SYNC_SOURCE_UNREADABLE: { status: 502, condition: 'The campus sync source (OneRoster feed or package) could not be read; the log of this request id says why' },
  ADKS_STORE_UNAVAILABLE: { status: 503, condition: 'The record store does not answer', headers: retrySoon },
  ADKS_SHARED_STATE_UNAVAILABLE: { status: 503, condition: 'Redis, which holds sign-in state and once-only claims shared by instances, does not answer', headers: retrySoon },
  ADKS_CACHE_UNAVAILABLE: { status: 503, condition: 'The response cache cannot be cleared or read for an admin request', headers: retrySoon },
  ADKS_JOBS_UNAVAILABLE: { status: 503, condition: 'The job queue (Redis) does not answer', headers: retrySoon },
  ADKS_SCHEMA_CHANGED: { status: 503, condition: 'Another instance has migrated the store to a newer class schema; this instance answers reads but refuses writes until it is restarted', headers: retrySoon },
  ADKS_AUDIT_UNAVAILABLE: { status: 503, condition: 'The access or change could not be written to the audit log, so its answer is withheld', headers: retrySoon },
  ADKS_SHUTTING_DOWN: { status: 503, condition: 'The instance is shutting down and did not serve the request; send it again', headers: retrySoon },
  ADKS_NOT_READY: { status: 503, condition: '/ready: a backing service (store or Redis) does not answer; the body names which', headers: retrySoon },
  ADKS_WEB_APP_NOT_BUILT: { status: 503, condition: 'A page of the web app was asked for, but the app is not built (WEB_DIR has no index.html); the API answers as usual', headers: retrySoon },
} as const satisfies Record<`ADKS_${string}`, Condition>

export type ErrorCode = keyof typeof errorTable

/**
 * A failure with an HTTP meaning, thrown by services and answered by the error handler as
 * `{success: false, error, statusCode, code}`. Its message is shown to callers, so it names the problem
 * and never carries internals. `headers` adds to the code's own (an ETag, a reset time).
 */
export interface AppError extends FastifyError {
  readonly code: ErrorCode
  readonly statusCode: number
  headers?: Readonly<Record<string, string>>
}

export function isAppError(error: unknown): error is AppError {
  if (!(error instanceof Error)) return false
  const { code } = error as { code?: unknown }
  return typeof code === 'string' && Object.hasOwn(errorTable, code)
}

/** The headers every answer of this code carries. */
export function headersOf(code: ErrorCode): Readonly<Record<string, string>> {
  const condition: Condition = errorTable[code]
  return condition.headers ?? {}
}

/** An error of ours answered with this status (a refusal a caller may retry in another way, say). */
export function hasStatus(error: unknown, status: number): error is AppError {
  return isAppError(error) && error.statusCode === status
}

/** The error class of one code: `new RecordNotFound('people/Faculty/x not found')`. */
function coded<C extends ErrorCode>(code: C) {
  return createError<C, (typeof errorTable)[C]['status'], [message: string, options?: { cause: unknown }]>(code, '%s', errorTable[code].status)
}

/** Gives one error headers of its own besides its code's. */
export function withHeaders<E extends AppError>(error: E, headers: Readonly<Record<string, string>>): E {
  error.headers = headers
  return error
}

export const ValidationFailed = coded('ADKS_VALIDATION_FAILED')
export const ReferenceNotFound = coded('ADKS_REFERENCE_NOT_FOUND')
export const BodyMalformed = coded('ADKS_BODY_MALFORMED')
export const CredentialsAmbiguous = coded('ADKS_CREDENTIALS_AMBIGUOUS')
export const SamlMalformed = coded('ADKS_SAML_MALFORMED')
export const AuthRequired = coded('ADKS_AUTH_REQUIRED')
export const TokenInvalid = coded('ADKS_TOKEN_INVALID')
export const ApiKeyInvalid = coded('ADKS_API_KEY_INVALID')
export const CustomTokenInvalid = coded('ADKS_CUSTOM_TOKEN_INVALID')
export const SamlInvalid = coded('ADKS_SAML_INVALID')
export const SamlSignatureInvalid = coded('ADKS_SAML_SIGNATURE_INVALID')
export const SamlUserUnusable = coded('ADKS_SAML_USER_UNUSABLE')
export const PermissionDenied = coded('ADKS_PERMISSION_DENIED')
export const ApiKeyNotAllowed = coded('ADKS_API_KEY_NOT_ALLOWED')
export const StudentAccessDenied = coded('ADKS_STUDENT_ACCESS_DENIED')
export const RecordNotFound = coded('ADKS_RECORD_NOT_FOUND')
export const SchemaNotFound = coded('ADKS_SCHEMA_NOT_FOUND')
export const QueueNotFound = coded('ADKS_QUEUE_NOT_FOUND')
export const JobNotFound = coded('ADKS_JOB_NOT_FOUND')
export const ScheduleNotFound = coded('ADKS_SCHEDULE_NOT_FOUND')
export const ImportNotFound = coded('ADKS_IMPORT_NOT_FOUND')
export const BackupNotFound = coded('ADKS_BACKUP_NOT_FOUND')
export const BackupInvalid = coded('ADKS_BACKUP_INVALID')
export const DegreeNotChosen = coded('ADKS_DEGREE_NOT_CHOSEN')
export const SsoNotConfigured = coded('ADKS_SSO_NOT_CONFIGURED')
export const PersonNotLinked = coded('ADKS_PERSON_NOT_LINKED')
export const VersionConflict = coded('ADKS_VERSION_CONFLICT')
export const WriteContended = coded('ADKS_WRITE_CONTENDED')
export const DuplicateRecord = coded('ADKS_DUPLICATE_RECORD')
export const RecordReferenced = coded('ADKS_RECORD_REFERENCED')
export const RestoreConflict = coded('ADKS_RESTORE_CONFLICT')
export const PlanUnderReview = coded('ADKS_PLAN_UNDER_REVIEW')
export const WorkflowConflict = coded('ADKS_WORKFLOW_CONFLICT')
export const ApiKeyActive = coded('ADKS_API_KEY_ACTIVE')
export const JobNotFailed = coded('ADKS_JOB_NOT_FAILED')
export const RateLimited = coded('ADKS_RATE_LIMITED')
export const SyncSourceUnreadable = coded('ADKS_SYNC_SOURCE_UNREADABLE')
export const SharedStateUnavailable = coded('ADKS_SHARED_STATE_UNAVAILABLE')
export const CacheUnavailable = coded('ADKS_CACHE_UNAVAILABLE')
export const JobsUnavailable = coded('ADKS_JOBS_UNAVAILABLE')
export const WebAppNotBuilt = coded('ADKS_WEB_APP_NOT_BUILT')
export const UrlTooLong = coded('ADKS_URL_TOO_LONG')
export const ShuttingDown = coded('ADKS_SHUTTING_DOWN')
export const SchemaChanged = coded('ADKS_SCHEMA_CHANGED')
