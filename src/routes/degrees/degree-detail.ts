import { Type } from '@sinclair/typebox'
import type { DegreeRequirements } from '../../degrees/requirements.js'
import type { DetailExtension } from '../../records/extensions.js'
import type { CompiledSchema } from '../../schema/index.js'

/** `GET /api/degrees/:id` carries the degree's requirement groups in order, each with its rules (docs/degree-audit.md). */
export function degreeDetail(requirements: DegreeRequirements, schema: CompiledSchema): DetailExtension {
  const rule = schema.builder.classSchema('RequirementRule', 'record')
  const group = Type.Object({
    _id: Type.String(),
    name: Type.String(),
    order: Type.Optional(Type.Integer()),
    description: Type.Optional(Type.String()),
    rules: Type.Array(rule, { description: 'The group\'s rules, in the group\'s list order' }),
  }, { title: 'RequirementGroupWithRules' })
  return {
    properties: {
      requirement_groups: Type.Array(group, { description: 'Requirement groups of the degree by order (unordered ones last), rules expanded' }),
    },
    dependsOn: requirements.collections,
    fields: async (degree) => ({ requirement_groups: await requirements.groupsOf(degree._id) }),
  }
}
