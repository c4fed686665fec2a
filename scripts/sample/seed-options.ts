import { maxScale } from './records.js'

export const seedUsage = 'usage: npm run seed -- [--scale N] [--if-empty] [--reset]'

export class SeedUsageError extends Error {
  override readonly name = 'SeedUsageError'
}

export interface SeedOptions {
  readonly scale: number
  /** Do nothing when people already has records. */
  readonly ifEmpty: boolean
  /** Empty the catalog and protected collections first. */
  readonly reset: boolean
}

export function parseSeedArgs(args: readonly string[]): SeedOptions {
  let scale = 1
  let ifEmpty = false
  let reset = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--if-empty') ifEmpty = true
    else if (arg === '--reset') reset = true
    else if (arg === '--scale' || arg.startsWith('--scale=')) {
      const value = arg === '--scale' ? args[++i] : arg.slice('--scale='.length)
      if (!value || !/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > maxScale) {
        throw new SeedUsageError(`--scale must be an integer from 1 to ${maxScale}, not ${JSON.stringify(value ?? '')}`)
      }
      scale = Number(value)
    } else throw new SeedUsageError(`unknown argument ${JSON.stringify(arg)}`)
  }
  if (ifEmpty && reset) throw new SeedUsageError('--if-empty and --reset cannot be used together')
  return { scale, ifEmpty, reset }
}
