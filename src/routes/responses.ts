import { Type } from '@sinclair/typebox'
import { errorMeanings } from '../http/openapi-statuses.js'

/** Documented error answers for a route, all shaped `{success: false, error, statusCode, code}`. */
export function errorResponses(...codes: number[]) {
  return Object.fromEntries(codes.map((code) => [code, Type.Ref('ErrorBody', { description: errorMeanings[code] ?? 'Error' })]))
}
