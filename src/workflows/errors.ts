import { WorkflowConflict } from '../errors.js'
import type { EntityView, StoredInstance } from './types.js'

/**
 * A 409 of the workflow service: a different decision after deciding, a decision on a closed instance,
 * a lost race. Carries the instance (and its entity) as they are now, for the answer's body.
 */
export class WorkflowConflictError extends WorkflowConflict {
  constructor(message: string, readonly instance: StoredInstance | null, readonly entity: EntityView | null = null) {
    super(message)
  }
}
