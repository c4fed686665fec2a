import { Ajv } from 'ajv'
import formatsPlugin from 'ajv-formats'

/**
 * Ajv set up the way docs/schemas.md tells a form generator to: strict mode, the discriminator keyword
 * on, every ajv-formats format, and `x-reference` registered as an annotation.
 */
export function formAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, discriminator: true })
  // ajv-formats is CommonJS whose typings declare an ES default; at run time the export is the function.
  const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default
  addFormats(ajv)
  ajv.addKeyword({ keyword: 'x-reference', schemaType: 'string' })
  return ajv
}
