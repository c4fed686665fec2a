import type { ClassDef, Model } from './model.js'

/** A generic record resource: a class hierarchy served under one path from one collection. */
export interface Resource {
  readonly path: string
  readonly tag: string
  /** The class that declares the path; its concrete descendants are what the resource serves. */
  readonly root: ClassDef
  readonly collection: string
  readonly classes: readonly string[]
  readonly permissions: { readonly read: string; readonly write: string }
  readonly polymorphic: boolean
}

export function resourceTable(model: Model): Resource[] {
  const resources: Resource[] = []
  for (const cls of model.classes.values()) {
    const { path, collection, permissions, tag } = cls.metadata
    if (!path || !collection || !permissions || cls.subdocument) continue
    const inherited = cls.ancestors.some((name) => model.classes.get(name)!.metadata.path === path)
    if (inherited) continue
    resources.push({
      path, collection, permissions, root: cls, classes: cls.concrete,
      tag: tag ?? cls.name, polymorphic: cls.concrete.length > 1,
    })
  }
  return resources.sort((a, b) => a.path.localeCompare(b.path))
}
