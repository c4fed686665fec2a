import type { TProperties } from '@sinclair/typebox'
import type { ApiRecord } from '../../records/service.js'

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

export interface RecordRouteOptions {
  /** Detail extensions by the name of the resource's root class. */
  readonly details?: Readonly<Partial<Record<string, DetailExtension>>>
}
