/** A fault in the class schema; start-up stops with this message, which names the file and definition. */
export class SchemaError extends Error {
  constructor(readonly file: string, readonly definition: string | undefined, detail: string) {
    super(`schema error in ${file}${definition ? `, definition ${definition}` : ''}: ${detail}`)
    this.name = 'SchemaError'
  }
}
