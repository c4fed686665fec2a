/** A schema change or migration start-up will not make (docs/schemas.md): the message says why and what to do; start-up prints it and stops. */
export class SchemaEvolutionError extends Error {
  override name = 'SchemaEvolutionError'
}
