import { Type } from '@sinclair/typebox'

const meanings: Record<number, string> = {
  400: 'Invalid input; the message names the field',
  401: 'Not signed in, or the credential is invalid',
  403: 'Signed in but not allowed',
  404: 'No such record',
  409: 'Conflict: duplicate, stale version or still referenced',
  413: 'Body larger than the limit',
  429: 'Rate limit exceeded',
  503: 'A backing service is unavailable',
}

/** Documented error answers for a route, all shaped `{success: false, error, statusCode}`. */
export function errorResponses(...codes: number[]) {
  return Object.fromEntries(codes.map((code) => [code, Type.Ref('ErrorBody', { description: meanings[code] ?? 'Error' })]))
}
