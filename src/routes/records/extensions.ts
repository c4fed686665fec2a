import type { Principal } from '../../auth/principal.js'
import type { StudentReferences } from '../../privacy/student-references.js'
import type { DetailExtension, RecordWriter, WriteGuard } from '../../records/extensions.js'

export interface RecordRouteOptions {
  /** Detail extensions by the name of the resource's root class. */
  readonly details?: Readonly<Partial<Record<string, DetailExtension>>>
  /** Write guards by the name of the resource's root class. */
  readonly guards?: Readonly<Partial<Record<string, WriteGuard<Principal>>>>
  /** Writers by the name of the resource's root class. */
  readonly writers?: Readonly<Partial<Record<string, RecordWriter<Principal>>>>
  /** Leaves references to students out of every answer for callers who may not see them (docs/privacy.md). */
  readonly students: StudentReferences
}
