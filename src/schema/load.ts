import { readdir, readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { SchemaError } from './errors.js'

export interface RawDefinition {
  readonly [key: string]: unknown
}

export interface RawFile {
  readonly file: string
  readonly definitions: readonly RawDefinition[]
}

/** Reads every `*.json` file of the schema directory, in name order. */
export async function loadSchemaFiles(dir: string): Promise<RawFile[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort()
  if (!names.length) throw new SchemaError(dir, undefined, 'no schema files (*.json) found')
  return Promise.all(names.map(async (name) => {
    const file = basename(name)
    let parsed: unknown
    try {
      parsed = JSON.parse(await readFile(join(dir, name), 'utf8'))
    } catch (error) {
      throw new SchemaError(file, undefined, `not valid JSON: ${(error as Error).message}`)
    }
    if (!Array.isArray(parsed)) throw new SchemaError(file, undefined, 'must hold a JSON array of definitions')
    parsed.forEach((definition, i) => {
      if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
        throw new SchemaError(file, `#${i}`, 'a definition must be an object')
      }
    })
    return { file, definitions: parsed as RawDefinition[] }
  }))
}
