import { Type } from '@sinclair/typebox'
import { jobStates, queueNames, type JobState } from '../../jobs/port.js'
import { schedulerIdPattern } from '../../jobs/schedule.js'
import { paging } from '../shared.js'

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()])
const Json = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description })

export const StateName = Type.Unsafe<JobState>({ type: 'string', enum: [...jobStates], description: jobStates.join(', ') })

/** A well-formed unknown name reaches the route, which answers 404 naming it; any other text is a 400. */
export const QueueParam = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$', description: queueNames.join(', ') })
/** Ids this service makes (see jobs/port.ts newJobId) and BullMQ's scheduled `repeat:<scheduler>:<time>`. */
export const JobIdParam = Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,200}$', description: 'The job id' })

export const Progress = Type.Object({
  percent: Type.Number({ minimum: 0, maximum: 100 }),
  processed: Type.Union([Type.Integer(), Type.Null()]),
  total: Type.Union([Type.Integer(), Type.Null()]),
  message: Nullable(Type.String()),
}, { title: 'JobProgress' })

export const Job = Type.Object({
  id: Type.String(),
  queue: Type.String(),
  name: Type.String(),
  state: StateName,
  data: Json('What the job was given: ids and options, never personal data'),
  progress: Type.Union([Progress, Type.Null()]),
  attempts: Type.Integer({ description: 'Runs started (a run handed back at shutdown or lost to a crash is not counted)' }),
  result: Type.Union([Json('What the job reported when it completed'), Type.Null()]),
  error: Nullable(Type.String({ description: 'Why the last attempt failed' })),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Nullable(Type.String({ format: 'date-time' })),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
}, { title: 'Job' })

export const JobPage = Type.Object({ items: Type.Array(Job), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() })

export const JobListQuery = Type.Object({
  ...paging,
  state: Type.Optional(StateName),
}, { additionalProperties: false })

export const Counts = Type.Object(Object.fromEntries(jobStates.map((s) => [s, Type.Integer()])) as Record<JobState, ReturnType<typeof Type.Integer>>)
export const QueueSummary = Type.Object({ name: Type.String(), counts: Counts, paused: Type.Boolean() }, { title: 'Queue' })

export const Scheduler = Type.Object({
  queue: Type.String(),
  id: Type.String(),
  name: Type.String({ description: 'The name of the job each run makes' }),
  pattern: Nullable(Type.String({ description: 'Cron pattern (5 fields, or 6 with seconds first)' })),
  every: Type.Union([Type.Integer({ description: 'Interval in milliseconds' }), Type.Null()]),
  tz: Nullable(Type.String({ description: 'IANA time zone of the pattern; UTC when null' })),
  data: Json('What each run is given'),
  next_run: Nullable(Type.String({ format: 'date-time' })),
}, { title: 'Scheduler' })

/** When a recurring job runs: exactly one of pattern and every (the route answers 400 naming the problem otherwise). */
export const Timing = {
  pattern: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "Cron pattern, e.g. '0 3 * * *'" })),
  every: Type.Optional(Type.Integer({ description: 'Interval in milliseconds, at least 1000' })),
  tz: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "IANA time zone, e.g. 'America/New_York'" })),
}

export const SchedulerBody = Type.Object({
  id: Type.String({ pattern: schedulerIdPattern, description: "Stable id: upserting the same id replaces the schedule" }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Job name of each run; the id when absent' })),
  ...Timing,
  data: Type.Optional(Json('What each run is given')),
}, { additionalProperties: false })

const SyncTiming = Type.Object(Timing, { additionalProperties: false })
export const PublicationSyncBody = Type.Object({
  import: Type.Optional(SyncTiming),
  citations: Type.Optional(SyncTiming),
}, { additionalProperties: false, minProperties: 1 })
export const PublicationSync = Type.Object({
  import: Type.Union([Scheduler, Type.Null()]),
  citations: Type.Union([Scheduler, Type.Null()]),
}, { title: 'PublicationSync' })

export const Removed = Type.Object({ id: Type.String(), message: Type.String() })
