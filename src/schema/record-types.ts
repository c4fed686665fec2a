import type { ClassDef, EnumDef, Model, PropertyDef, ScalarType } from './model.js'

/**
 * Renders the TypeScript record types of the class schema: the text of src/schema/generated/records.ts,
 * which `npm run schema:types` writes and a test keeps equal to what the schema gives. Services type their
 * records with it, so renaming a field in schema/ breaks the type check wherever the old name is read.
 *
 * Types are object type aliases, not interfaces: an alias is assignable to the store's `Doc` (an index
 * signature over unknown values) without declaring one, and an index signature on the records themselves
 * would let a misspelt field read as `unknown` instead of failing.
 */

export const recordTypesFile = 'src/schema/generated/records.ts'

const scalars: Record<ScalarType, string> = {
  'xsd:string': 'string',
  'xsd:integer': 'number',
  'xsd:decimal': 'number',
  'xsd:boolean': 'boolean',
  'xsd:dateTime': 'string',
  'xsd:date': 'string',
}

function doc(text: string | undefined, indent = ''): string {
  return text ? `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n` : ''
}

/** The checker admits only words as enum values and class names, so none needs escaping. */
function literal(value: string): string {
  return `'${value}'`
}

function valueType(prop: PropertyDef): string {
  const { target } = prop
  switch (target.kind) {
    case 'scalar': return scalars[target.scalar]
    case 'reference': return 'string'
    case 'enum':
    case 'subdocument': return target.name
  }
}

function propertyLine(prop: PropertyDef, subdocument: boolean): string {
  const many = prop.kind === 'set' || prop.kind === 'list' || prop.kind === 'array'
  const value = valueType(prop)
  // Stored records get every list (empty when not given); a subdocument keeps what its writer sent.
  const optional = prop.kind === 'optional' || (many && subdocument)
  const note = prop.target.kind === 'reference' ? `(the id of the referenced ${prop.target.name})` : undefined
  const comment = [prop.description, note].filter(Boolean).join(' ')
  return `${doc(comment, '  ')}  ${prop.name}${optional ? '?' : ''}: ${many ? `${value}[]` : value}\n`
}

function renderEnum(def: EnumDef): string {
  return `${doc(def.comment)}export type ${def.name} = ${def.values.map(literal).join(' | ')}\n`
}

function renderClass(cls: ClassDef): string {
  const bases = cls.parents.length ? [...cls.parents] : cls.subdocument ? [] : ['SystemFields']
  let body = cls.subdocument ? '' : `  type: ${cls.concrete.map(literal).join(' | ') || 'never'}\n`
  for (const prop of cls.properties) {
    if (prop.declaredIn === cls.name) body += propertyLine(prop, cls.subdocument)
  }
  return `${doc(cls.comment)}export type ${cls.name} = ${[...bases, `{\n${body}}`].join(' & ')}\n`
}

export function renderRecordTypes(model: Model): string {
  const classes = [...model.classes.values()]
  const records = classes.filter((cls) => !cls.subdocument).sort((a, b) => (a.name < b.name ? -1 : 1))
  return [
    '// Generated from schema/*.json by `npm run schema:types` (src/schema/record-types.ts); do not edit.\n',
    '/** The system fields every stored record carries. */\n'
      + 'export type SystemFields = {\n  _id: string\n  _version: number\n  _created_at: string\n  _updated_at: string\n}\n',
    ...[...model.enums.values()].map(renderEnum),
    ...classes.map(renderClass),
    '/** Every class whose records have an id, by name; an abstract class\'s record is any of its subclasses\'. */\n'
      + `export interface RecordTypes {\n${records.map((cls) => `  ${cls.name}: ${cls.abstract ? cls.concrete.join(' | ') : cls.name}\n`).join('')}}\n`,
  ].join('\n')
}
