/**
 * Failures with an HTTP meaning, thrown by services and answered by the error handler as
 * `{success: false, error, statusCode}`. Their messages are shown to callers, so they name the problem
 * and never carry internals.
 */
export class AppError extends Error {
  constructor(readonly statusCode: number, message: string, readonly headers: Readonly<Record<string, string>> = {}) {
    super(message)
    this.name = new.target.name
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) { super(400, message) }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required') { super(401, message, { 'www-authenticate': 'Bearer' }) }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Permission denied') { super(403, message) }
}

export class NotFoundError extends AppError {
  constructor(message: string) { super(404, message) }
}

export class ConflictError extends AppError {
  constructor(message: string, headers: Readonly<Record<string, string>> = {}) { super(409, message, headers) }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, retryAfterSeconds = 5) { super(503, message, { 'retry-after': String(retryAfterSeconds) }) }
}
