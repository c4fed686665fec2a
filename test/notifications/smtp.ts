import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import type { Test } from 'tap'
import { ferpaViolations } from './ferpa.js'

/** One message the test SMTP server accepted. */
export interface ReceivedMail {
  /** RCPT TO, as the client sent it. */
  readonly to: readonly string[]
  readonly from: string
  /** The message as received, headers and all. */
  readonly raw: string
  readonly parsed: ParsedMail
  readonly subject: string
  readonly text: string
  readonly html: string
  /** What of the FERPA rule this message breaks (docs/notifications.md); empty when it is clean. */
  readonly violations: readonly string[]
}

export interface SmtpFixture {
  readonly port: number
  /** SMTP_URL for the app under test. */
  readonly url: string
  readonly received: ReceivedMail[]
  /** Every FERPA violation in every message so far, named by the message's subject. */
  violations(): string[]
  /** Stops listening and drops open connections (the server is down). */
  stop(): Promise<void>
  /** Listens again on the same port. */
  start(): Promise<void>
  /** Waits (30 s at most) until `count` messages have arrived in all; answers them. */
  waitFor(count: number): Promise<ReceivedMail[]>
}

/**
 * A real SMTP server on loopback (smtp-server), the remote party of the email tests: plain SMTP with
 * no authentication, every message parsed with mailparser and checked with ferpaViolations.
 */
export async function smtpServer(t: Test): Promise<SmtpFixture> {
  const received: ReceivedMail[] = []
  let server: SMTPServer | null = null
  let port = 0

  const listen = async () => {
    const next = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false, closeTimeout: 50,
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const raw = Buffer.concat(chunks)
          simpleParser(raw).then((parsed) => {
            const subject = parsed.subject ?? ''
            const text = parsed.text ?? ''
            const html = typeof parsed.html === 'string' ? parsed.html : ''
            received.push({
              to: session.envelope.rcptTo.map((r) => r.address), from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              raw: raw.toString('utf8'), parsed, subject, text, html, violations: ferpaViolations(`${subject}\n${text}\n${html}`),
            })
            callback()
          }, (error: Error) => callback(error))
        })
      },
    })
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => {
        next.off('error', reject)
        resolve()
      })
    })
    port = (next.server.address() as AddressInfo).port
    server = next
  }
  const stop = async () => {
    const running = server
    server = null
    if (running) await new Promise<void>((resolve) => running.close(() => resolve()))
  }

  await listen()
  t.teardown(stop)
  return {
    port, url: `smtp://127.0.0.1:${port}`, received,
    violations: () => received.flatMap((m) => m.violations.map((v) => `${m.subject}: ${v}`)),
    stop, start: listen,
    async waitFor(count) {
      const until = Date.now() + 30_000
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`waited 30 s for ${count} emails; ${received.length} arrived`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      return received
    },
  }
}
