import t from 'tap'
import { Breaker, RedisSkippedError } from '../../src/redis/breaker.js'

const timedOut = () => Promise.reject(new Error('Command timed out'))
const replyError = () => Promise.reject(Object.assign(new Error('WRONGTYPE'), { name: 'ReplyError' }))
const ok = () => Promise.resolve('OK')

t.test('a failure opens it for a while; then one command probes, and its success closes it', async (t) => {
  let now = 0
  const breaker = new Breaker(5000, () => now)
  t.equal(await breaker.run(ok), 'OK', 'closed: commands run')
  await t.rejects(breaker.run(timedOut), /timed out/)
  let ran = false
  await t.rejects(breaker.run(async () => { ran = true }), RedisSkippedError, 'open: refused at once')
  t.notOk(ran, 'without running the command')

  now = 5000
  let release!: (value: string) => void
  const probe = breaker.run(() => new Promise<string>((resolve) => { release = resolve }))
  await t.rejects(breaker.run(ok), RedisSkippedError, 'one probe at a time: others are still refused')
  release('PONG')
  t.equal(await probe, 'PONG')
  t.equal(await breaker.run(ok), 'OK', 'closed again')
})

t.test('a failed probe opens it again, for the whole interval', async (t) => {
  let now = 0
  const breaker = new Breaker(5000, () => now)
  await t.rejects(breaker.run(timedOut))
  now = 5000
  await t.rejects(breaker.run(timedOut), /timed out/, 'the probe fails')
  now = 9999
  await t.rejects(breaker.run(ok), RedisSkippedError)
  now = 10_000
  t.equal(await breaker.run(ok), 'OK')
})

t.test('an error Redis answered with leaves it closed: the connection is fine', async (t) => {
  const breaker = new Breaker(5000, () => 0)
  await t.rejects(breaker.run(replyError), /WRONGTYPE/)
  t.equal(await breaker.run(ok), 'OK')
})
