import { createTransport } from 'nodemailer'
import type { Rendered } from './templates.js'

/** What an SMTP send answered: accepted, refused for good (a 5xx), or worth trying again. */
export type SendOutcome =
  | { readonly ok: true; readonly messageId: string }
  | { readonly ok: false; readonly permanent: boolean; readonly error: string; readonly connection: boolean }

export interface Outgoing extends Rendered {
  readonly to: string
  /** Without the angle brackets; the same for every attempt of one delivery. */
  readonly messageId: string
}

/**
 * Bounds on one send, all well under the 60 s after which the sweep takes a claim back
 * (docs/notifications.md), so a live sender's claim is never taken back and sent a second time by another.
 */
const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000, dnsTimeout: 10_000 }
const sendLimitMs = 40_000

function errorOf(error: unknown): SendOutcome & { ok: false } {
  const e = error as { message?: string; responseCode?: number; code?: string }
  const code = typeof e.responseCode === 'number' ? e.responseCode : undefined
  return {
    ok: false,
    permanent: code !== undefined && code >= 500 && code < 600,
    // No SMTP reply at all: the server is away, and the rest of a batch would fail the same way.
    connection: code === undefined,
    error: String(e.message ?? error).replace(/[\r\n]+/g, ' ').slice(0, 500),
  }
}

/**
 * One pooled SMTP transport for the process, made from SMTP_URL on the first send. Closed, it sends
 * nothing more (a job still running at shutdown leaves its delivery pending for the sweep).
 */
export class Mailer {
  private transport: ReturnType<typeof createTransport> | null = null
  private closed = false

  constructor(private readonly smtpUrl: string, private readonly from: string) {}

  private get pool() {
    if (this.closed) throw new Error('the mailer is closed')
    // nodemailer's own requeue would resend a message whose connection dropped mid-send; the delivery
    // records decide retries instead.
    this.transport ??= createTransport({ url: this.smtpUrl, pool: true, maxConnections: 5, maxRequeues: 0, idleTimeout: 30_000, ...timeouts })
    return this.transport
  }

  async send(message: Outgoing): Promise<SendOutcome> {
    try {
      const info = await this.pool.sendMail({
        from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html,
        messageId: `<${message.messageId}>`, signal: AbortSignal.timeout(sendLimitMs),
      })
      return { ok: true, messageId: info.messageId }
    } catch (error) {
      return errorOf(error)
    }
  }

  close(): void {
    this.closed = true
    this.transport?.close()
    this.transport = null
  }
}

/** The domain of the From address, for Message-IDs: the sender's own, as RFC 5322 suggests. */
export function messageIdDomain(from: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)
  return match?.[1] ?? 'localhost'
}
