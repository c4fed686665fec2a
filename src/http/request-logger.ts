import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type Bindings = Record<string, unknown>
type Write = (...args: unknown[]) => void

/**
 * A request's logger that makes its pino child only when a line is written at an enabled level. pino
 * builds each child's bindings eagerly (serialising and redacting them), which cost every request about
 * as much as its route's own work, although nearly all requests write nothing.
 */
class RequestLogger {
  #child: FastifyBaseLogger | undefined

  constructor(private readonly parent: FastifyBaseLogger, private readonly bindings: Bindings, private readonly options: object) {}

  private real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options))
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level
  }

  set level(level: string) {
    this.real().level = level
  }

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.real().child(bindings, options)
  }

  private write(level: Level, args: unknown[]): void {
    const logger = (this.#child ?? this.parent) as FastifyBaseLogger & { isLevelEnabled?(level: Level): boolean }
    if (logger.isLevelEnabled?.(level) ?? true) (this.real()[level] as Write)(...args)
  }

  fatal(...args: unknown[]): void { this.write('fatal', args) }
  error(...args: unknown[]): void { this.write('error', args) }
  warn(...args: unknown[]): void { this.write('warn', args) }
  info(...args: unknown[]): void { this.write('info', args) }
  debug(...args: unknown[]): void { this.write('debug', args) }
  trace(...args: unknown[]): void { this.write('trace', args) }
  silent(): void {}
}

/** Fastify's `childLoggerFactory`: request loggers whose pino child is made on first use. */
export const requestLoggers: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new RequestLogger(logger, bindings, options) as FastifyBaseLogger
