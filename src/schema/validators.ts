import type { Ajv, ValidateFunction } from 'ajv'
import { describeError } from './ajv.js'
import type { SchemaBuilder, Variant } from './typebox.js'

/** Compiled validators for every class and variant, built on first use. */
export class Validators {
  private readonly compiled = new Map<string, ValidateFunction>()

  constructor(private readonly ajv: Ajv, private readonly builder: SchemaBuilder) {}

  private validator(className: string, variant: Variant): ValidateFunction {
    const key = `${className}:${variant}`
    let validate = this.compiled.get(key)
    if (!validate) {
      validate = this.ajv.compile(this.builder.classSchema(className, variant))
      this.compiled.set(key, validate)
    }
    return validate
  }

  /** The first problem with the value, as a sentence naming the field, or undefined when it is valid. */
  problem(className: string, variant: Variant, value: unknown): string | undefined {
    const validate = this.validator(className, variant)
    if (validate(value)) return undefined
    const [first] = validate.errors ?? []
    return first ? describeError(first) : 'invalid value'
  }
}
