/** The checked, flattened form of the class schema that every derivation works from. */

export const scalarTypes = ['xsd:string', 'xsd:integer', 'xsd:decimal', 'xsd:boolean', 'xsd:dateTime', 'xsd:date'] as const
export type ScalarType = (typeof scalarTypes)[number]

export type PropertyKind = 'required' | 'optional' | 'set' | 'list' | 'array'

export type Target =
  | { readonly kind: 'scalar'; readonly scalar: ScalarType }
  | { readonly kind: 'enum'; readonly name: string }
  | { readonly kind: 'reference'; readonly name: string }
  | { readonly kind: 'subdocument'; readonly name: string }

export interface Constraints {
  readonly pattern?: string
  readonly format?: 'email' | 'uri' | 'date-time' | 'date'
  readonly minLength?: number
  readonly maxLength?: number
  readonly minimum?: number
  readonly maximum?: number
  readonly exclusiveMinimum?: number
  readonly maxItems?: number
}

export interface PropertyDef {
  readonly name: string
  readonly kind: PropertyKind
  readonly target: Target
  readonly description?: string
  readonly constraints: Constraints
  /** The class that declares the property (an ancestor, for inherited ones). */
  readonly declaredIn: string
}

export type KeySpec =
  | { readonly type: 'Random' }
  | { readonly type: 'Lexical' | 'Hash'; readonly fields: readonly string[] }
  | { readonly type: 'ValueHash' }

export interface IndexDef {
  readonly fields: readonly string[]
  readonly unique?: boolean
  readonly sparse?: boolean
}

export interface RelatedDef {
  /** Sub-path under a record, e.g. `publications` for /api/people/:id/publications. */
  readonly path: string
  readonly class: string
  /** Property of `class` that references the record. */
  readonly field: string
  readonly summary: string
}

export interface ClassMetadata {
  readonly collection?: string
  readonly path?: string
  readonly tag?: string
  readonly permissions?: { readonly read: string; readonly write: string }
  readonly protected?: boolean
  readonly history?: boolean
  readonly student?: boolean
  readonly visible_to?: 'admins' | 'admins-self-advisors'
  readonly self_editable: readonly string[]
  readonly identity_fields: readonly string[]
  readonly correctable_key: readonly string[]
  readonly system_fields: readonly string[]
  readonly defaults: Readonly<Record<string, boolean | number | string>>
  readonly label: readonly string[]
  readonly searchable: readonly string[]
  readonly sortable: readonly string[]
  readonly default_sort: readonly string[]
  readonly filters: Readonly<Record<string, string>>
  readonly list_fields: readonly string[]
  readonly indexes: readonly IndexDef[]
  readonly constraints: Readonly<Record<string, Constraints>>
  readonly related: readonly RelatedDef[]
  readonly api_keys?: readonly ('list' | 'detail')[]
  readonly grants?: string
  readonly cache?: {
    readonly ttl_seconds: number
    readonly routes: readonly ('list' | 'detail')[]
    readonly related?: readonly string[]
  }
}

/** `N` narrows the name where the code names the class, so the class's records get its generated type. */
export interface ClassDef<N extends string = string> {
  readonly name: N
  readonly file: string
  readonly abstract: boolean
  readonly subdocument: boolean
  readonly parents: readonly string[]
  /** Every ancestor, nearest first. */
  readonly ancestors: readonly string[]
  /** This class and every descendant that is not abstract. */
  readonly concrete: readonly string[]
  /** Own and inherited properties, ancestors' first. */
  readonly properties: readonly PropertyDef[]
  readonly key: KeySpec
  readonly comment?: string
  readonly metadata: ClassMetadata
}

export interface EnumDef {
  readonly name: string
  readonly file: string
  readonly values: readonly string[]
  readonly comment?: string
}

export interface Model {
  readonly classes: ReadonlyMap<string, ClassDef>
  readonly enums: ReadonlyMap<string, EnumDef>
}

export function isStored(cls: ClassDef): boolean {
  return !cls.subdocument && cls.metadata.collection !== undefined
}

export function property(cls: ClassDef, name: string): PropertyDef | undefined {
  return cls.properties.find((p) => p.name === name)
}
