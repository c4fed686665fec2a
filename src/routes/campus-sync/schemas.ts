import { Type } from '@sinclair/typebox'
import { paging } from '../shared.js'

const termCode = Type.String({ pattern: '^[0-9]{2}[FSUW]$', description: 'A term code: two-digit year and season letter, e.g. 25F' })
const feedUrl = (description: string) => Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000, description: `${description}; http(s), and it may name a private or loopback address` })
const sourceType = Type.Union([Type.Literal('oneroster-rest'), Type.Literal('oneroster-csv')])
const deletePolicy = Type.Union([Type.Literal('deactivate'), Type.Literal('keep')], { description: 'deactivate: records the feed drops are marked inactive; keep: left as they are' })
const percent = Type.Number({ minimum: 0, maximum: 100, description: 'A run that would deactivate more of a kind than this share of its active records synced from the feed stops before writing' })

export const SyncBody = Type.Object({
  term: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "A term code of the source's academicSessions or of the configured terms" })),
  dryRun: Type.Optional(Type.Boolean({ description: 'Report the diff the run would apply; write nothing' })),
}, { additionalProperties: false })

/** A complete sync takes only a term: a dry run of sections after a courses run that wrote nothing would say nothing. */
export const AllBody = Type.Object({
  term: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "A term code of the source's academicSessions or of the configured terms" })),
}, { additionalProperties: false })

export const ConfigBody = Type.Object({
  source: Type.Object({
    type: sourceType,
    url: Type.Optional(feedUrl('Base URL of the OneRoster REST provider (…/ims/oneroster/rostering/v1p2/ is added)')),
    token_url: Type.Optional(feedUrl('OAuth 2.0 token endpoint; <url>/token when absent')),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Directory or zip of a OneRoster CSV package, on the server' })),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    client_secret: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 2000 }), Type.Null()], {
      description: 'Write-only. Absent or "set": keep the stored secret (while the token URL stays the same); null or "unset": remove it',
    })),
  }, { additionalProperties: false }),
  terms: Type.Optional(Type.Array(termCode, { maxItems: 50, uniqueItems: true, description: 'Terms to sync sections and enrollments of; empty or absent: every term of the feed' })),
  delete_policy: Type.Optional(deletePolicy),
  max_deactivate_percent: Type.Optional(percent),
}, { additionalProperties: false })

export const ConfigAnswer = Type.Object({
  configured: Type.Boolean({ description: 'False: nothing is stored and the sample package is synced' }),
  source: Type.Object({
    type: sourceType,
    url: Type.Optional(Type.String()),
    token_url: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Union([Type.Literal('set'), Type.Literal('unset')], { description: 'Whether a secret is stored; the secret itself is never answered' }),
  }),
  terms: Type.Array(Type.String()),
  delete_policy: deletePolicy,
  max_deactivate_percent: Type.Number(),
}, { title: 'CampusSyncConfig' })

export const TermList = Type.Object({
  items: Type.Array(Type.Object({
    code: Type.String(),
    title: Type.Union([Type.String(), Type.Null()]),
    start: Type.Union([Type.String(), Type.Null()]),
    end: Type.Union([Type.String(), Type.Null()]),
    in_source: Type.Boolean({ description: "Among the source's academicSessions" }),
    synced: Type.Boolean({ description: 'Sections and enrollments of this term are synced (the configured terms, or every term when none is configured)' }),
  })),
}, { title: 'CampusSyncTerms' })

const count = Type.Integer({ minimum: 0 })
const RowNote = Type.Object({ row: Type.Integer(), sourced_id: Type.String(), message: Type.String() })
export const SyncRunItem = Type.Object({
  _id: Type.String(),
  kind: Type.String(),
  system: Type.String(),
  term: Type.Optional(Type.String()),
  dry_run: Type.Boolean(),
  status: Type.String({ description: 'completed, failed or refused (the mass-deactivation guard)' }),
  message: Type.Optional(Type.String()),
  started_at: Type.String({ format: 'date-time' }),
  finished_at: Type.String({ format: 'date-time' }),
  rows: Type.Optional(Type.Integer({ minimum: 0, description: 'Rows the feed delivered for the run' })),
  created: count, updated: count, unchanged: count, deactivated: count, skipped: count,
  accounted: Type.Optional(Type.Boolean({ description: 'Every row is counted once: created, updated, unchanged, deactivated, skipped or in error' })),
  errors: Type.Array(RowNote),
  warnings: Type.Optional(Type.Array(RowNote, { description: 'Rows that landed without a field they brought, and why' })),
  reverts: Type.Optional(Type.String({ description: 'On a revert: the run it undid (a SyncRun id, or import:<run>)' })),
  reverted_by: Type.Optional(Type.String({ description: 'The revert run that undid this run' })),
}, { title: 'CampusSyncRun' })

export const RunsQuery = Type.Object({
  ...paging,
  kind: Type.Optional(Type.Union([Type.Literal('courses'), Type.Literal('sections'), Type.Literal('people'), Type.Literal('revert')])),
}, { additionalProperties: false })

export const RunPage = Type.Object({ items: Type.Array(SyncRunItem), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() })
