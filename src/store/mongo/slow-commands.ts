import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent, MongoClient } from 'mongodb'

/** One command that took at least the threshold: its shape, never its values (they may be personal). */
export interface SlowCommand {
  readonly command: string
  readonly collection?: string
  /** The filter, sort and pipeline with every value replaced by its type; operators and field names kept. */
  readonly shape: unknown
  readonly ms: number
  readonly failed?: true
}

/** Keys and operators of a filter or sort, every value as its type: enough to tell which query it was. */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length && value.every((v) => v === null || typeof v !== 'object') ? `[${value.length}]` : value.map(shapeOf)
  // The driver sends a sort as a Map, to keep its order.
  if (value instanceof Map) return shapeOf(Object.fromEntries(value))
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shapeOf(v)]))
  }
  return value === null ? 'null' : typeof value === 'object' ? value.constructor.name : typeof value
}

/** The parts of a command that say which query it was; documents written are left out. */
const queryParts = ['filter', 'sort', 'query', 'pipeline', 'updates', 'deletes', 'q', 'limit'] as const

/**
 * Reports every command the client sends that takes at least `thresholdMs` (MONGODB_SLOW_MS). The
 * driver's own command monitoring gives the duration; the shape comes from the started event, held
 * by request id until the command ends. Costs an event per command, so it is on only when asked for.
 */
export function reportSlowCommands(client: MongoClient, thresholdMs: number, report: (entry: SlowCommand) => void): void {
  const started = new Map<number, { command: string; collection?: string; shape: unknown }>()
  client.on('commandStarted', (event: CommandStartedEvent) => {
    // getMore names its collection apart, as its own value is the cursor's id.
    const target = event.commandName === 'getMore' ? event.command.collection : event.command[event.commandName]
    const parts = Object.fromEntries(queryParts.filter((p) => p in event.command).map((p) => [p, p === 'limit' ? event.command[p] : shapeOf(event.command[p])]))
    started.set(event.requestId, { command: event.commandName, ...(typeof target === 'string' ? { collection: target } : {}), shape: parts })
  })
  const ended = (failed: boolean) => (event: CommandSucceededEvent | CommandFailedEvent) => {
    const begun = started.get(event.requestId)
    started.delete(event.requestId)
    if (begun && event.duration >= thresholdMs) report({ ...begun, ms: Math.round(event.duration), ...(failed ? { failed: true as const } : {}) })
  }
  client.on('commandSucceeded', ended(false))
  client.on('commandFailed', ended(true))
}
