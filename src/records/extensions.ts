import type { TProperties } from '@sinclair/typebox'
import type { ApiRecord, WriteBy } from './service.js'

/**
 * Fields a class's detail answer carries besides the record's own (a degree's requirement groups), read
 * from other collections. The generic detail route declares them in its response schema and adds them.
 */
export interface DetailExtension {
  readonly properties: TProperties
  /** Collections the fields are read from, so a cached detail answer is dropped when they change. */
  readonly dependsOn: readonly string[]
  fields(record: ApiRecord): Promise<Record<string, unknown>>
}

/**
 * A rule a resource's writes must pass besides its permissions (committee groups belong to admins). It
 * is given the record before the write (none on create) and as the write would leave it (none on
 * delete), and throws to refuse. `Caller` is who writes (the routes' Principal): records know nothing of
 * identity, which is built on them.
 */
export interface WriteGuard<Caller> {
  check(caller: Caller, before: Readonly<Record<string, unknown>> | undefined, after: Readonly<Record<string, unknown>> | undefined): Promise<void>
}

/**
 * A class's own rules for changing and deleting its records (who owns a publication, what an import must
 * remember), run by the generic update and delete routes after their checks, in place of the plain write.
 * Each refuses with a 403 naming its rule.
 */
export interface RecordWriter<Caller> {
  update(caller: Caller, current: ApiRecord, patch: Readonly<Record<string, unknown>>, options: { expectVersion?: number } & WriteBy): Promise<ApiRecord>
  remove(caller: Caller, current: ApiRecord, by: WriteBy): Promise<void>
}
