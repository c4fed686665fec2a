import type { RJSFSchema, ValidatorType } from '@rjsf/utils'

/**
 * The forms' validator compiles nothing: every value passes here and the server's 400 is shown on the
 * field it names. ajv would compile each schema with `new Function`, which the CSP forbids, and the
 * schemas come from the running service (/api/schemas), so they cannot be precompiled when the app is
 * built; the server checks every body with the same schemas anyway (docs/web.md, "Admins' records").
 */
export const serverValidator: ValidatorType<Record<string, unknown>, RJSFSchema> = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  // Asked when choosing among anyOf/oneOf branches; the form schemas have none left (formSchema unwraps them).
  isValid: () => true,
  rawValidation: () => ({}),
}
