import { Type, type TSchema } from '@sinclair/typebox'
import type { CompiledSchema, Resource } from '../../schema/index.js'
import { typeNames } from '../../records/list-query.js'
import { paging } from '../shared.js'

function filterSchema(schema: CompiledSchema, resource: Resource, param: string, meaning: string): TSchema {
  switch (meaning) {
    case '@type': return Type.String({ enum: typeNames(schema, resource), description: 'Record type' })
    case '@search': return Type.String({ maxLength: 200, description: 'Words to find; each must begin a word of the record' })
    case '@subject': return Type.String({ pattern: '^[A-Za-z]{1,8}$', description: 'Subject letters of the course code, e.g. CS' })
    case '@level': return Type.Integer({ minimum: 100, maximum: 900, multipleOf: 100, description: 'Courses of this level: 300 is numbers 300 to 399' })
    case '@offered_in': return Type.String({ pattern: '^[0-9]{2}[FSUW]$', description: 'Only courses with a section in this term, e.g. 25F' })
  }
  const prop = resource.root.properties.find((p) => p.name === meaning)!
  const value = schema.builder.valueSchema(prop) as TSchema & { description?: string }
  return { ...value, description: `Records whose ${meaning} ${prop.kind === 'set' || prop.kind === 'list' ? 'include' : 'is'} this value` } as TSchema
}

export function listQuery(schema: CompiledSchema, resource: Resource) {
  const filters = Object.fromEntries(Object.entries(resource.root.metadata.filters)
    .map(([param, meaning]) => [param, Type.Optional(filterSchema(schema, resource, param, meaning))]))
  const sortable = resource.root.metadata.sortable
  return Type.Object({
    ...paging,
    sort: Type.Optional(Type.String({
      pattern: '^-?[a-z_]+(,-?[a-z_]+){0,4}$',
      description: `Comma-separated fields, - for descending. Sortable: ${sortable.join(', ')}`,
    })),
    ...filters,
  }, { additionalProperties: false })
}
