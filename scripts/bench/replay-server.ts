// A bare Fastify that sends recorded answers verbatim: the cost of the bytes alone, with no work behind them.
import Fastify from 'fastify'
import { readFileSync } from 'node:fs'
import type { Recorded } from './replay.js'

const recorded = JSON.parse(readFileSync(process.env.REPLAY_FILE!, 'utf8')) as Recorded[]
const app = Fastify({ logger: false })
recorded.forEach(({ headers, body }, i) => {
  const bytes = Buffer.from(body, 'base64')
  app.get(`/${i}`, (_request, reply) => { reply.headers(headers).send(bytes) })
})
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
