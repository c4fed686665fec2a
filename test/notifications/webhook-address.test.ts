import { Webhook } from 'standardwebhooks'
import t from 'tap'
import { checkTarget, forbiddenKind, parseTarget, TargetRefused } from '../../src/notifications/webhooks/address.js'
import { newSecret, signatureHeader } from '../../src/notifications/webhooks/signature.js'

t.test('the signer agrees with the Standard Webhooks reference library', async (t) => {
  const secret = newSecret()
  t.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/, 'whsec_ and the base64 of 32 bytes')
  t.equal(Buffer.from(secret.slice(6), 'base64').length, 32)
  t.not(newSecret(), secret, 'random')
  const id = 'ThesisRequest/abc#2/workflow.stage_activated'
  const timestamp = Math.floor(Date.now() / 1000)
  const body = Buffer.from(JSON.stringify({ id, data: { title: 'Tides — “quoted”, ünïcode' } }))
  const header = signatureHeader([secret], id, timestamp, body)
  t.equal(header, new Webhook(secret).sign(id, new Date(timestamp * 1000), body.toString('utf8')), 'the same signature as the library computes')
  const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': header }
  t.doesNotThrow(() => new Webhook(secret).verify(body.toString('utf8'), headers), 'the library verifies it')
  t.throws(() => new Webhook(newSecret()).verify(body.toString('utf8'), headers), 'another secret does not')
  t.throws(() => new Webhook(secret).verify(`${body.toString('utf8')} `, headers), 'a changed body does not')

  const old = newSecret()
  const both = signatureHeader([secret, old], id, timestamp, body)
  t.equal(both.split(' ').length, 2, 'two signatures, space-separated')
  t.doesNotThrow(() => new Webhook(secret).verify(body.toString('utf8'), { ...headers, 'webhook-signature': both }), 'the new secret verifies')
  t.doesNotThrow(() => new Webhook(old).verify(body.toString('utf8'), { ...headers, 'webhook-signature': both }), 'the old secret verifies')
})

t.test('forbidden addresses by kind, IPv4 inside IPv6 judged as itself', async (t) => {
  const cases: [string, string | undefined][] = [
    ['127.0.0.1', 'loopback'], ['127.200.3.4', 'loopback'], ['::1', 'loopback'], ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'],
    ['0.0.0.0', 'unspecified'], ['::', 'unspecified'],
    ['169.254.169.254', 'link-local'], ['fe80::1', 'link-local'],
    ['10.0.0.1', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'], ['fd00::1', 'private'], ['fc00::1', 'private'],
    ['fd00:ec2::254', 'private'], ['100.100.100.200', 'private'], ['::ffff:10.0.0.1', 'private'], ['64:ff9b::a00:1', 'private'], ['2002:c0a8:101::1', 'private'],
    ['224.0.0.1', 'reserved'], ['255.255.255.255', 'reserved'], ['ff02::1', 'reserved'],
    ['93.184.215.14', undefined], ['172.32.0.1', undefined], ['8.8.8.8', undefined], ['2606:4700::1111', undefined], ['::ffff:8.8.8.8', undefined],
  ]
  for (const [address, kind] of cases) t.equal(forbiddenKind(address), kind, address)
})

t.test('URLs refused for their form, whatever they point at', async (t) => {
  const refused: [string, RegExp][] = [
    ['ftp://example.org/hook', /only http and https/],
    ['file:///etc/passwd', /only http and https/],
    ['not a url', /not a URL/],
    ['http://user:pw@example.org/hook', /carries no credentials/],
    ['http://2130706433/', /non-canonical form \(write 127\.0\.0\.1\)/],
    ['http://0x7f.1/', /non-canonical/],
    ['http://127.1/', /non-canonical/],
    ['http://0177.0.0.1/', /non-canonical/],
    ['http://127.0.0.1./', /non-canonical/],
    ['http:127.1/', /non-canonical/],
    ['http://%31%32%37.0.0.1/', /non-canonical/],
    ['http://134744072/', /non-canonical form \(write 8\.8\.8\.8\)/],
    ['http://[0:0:0:0:0:0:0:1]/', /non-canonical/],
  ]
  for (const [url, reason] of refused) {
    t.throws(() => parseTarget(url), reason, url)
    try {
      parseTarget(url)
    } catch (error) {
      t.ok(error instanceof TargetRefused && error.message.startsWith('Webhook URL '), `${url}: the message names the URL`)
      t.notMatch((error as Error).message, /pw@/, 'never its credentials')
    }
  }
  for (const url of ['https://hooks.example.org/in?x=1', 'http://8.8.8.8:8080/hook', 'http://[2606:4700::1111]/hook']) t.doesNotThrow(() => parseTarget(url), url)
})

t.test('a host is judged by every address it resolves to, and the request goes to the checked one', async (t) => {
  const dns: Record<string, { address: string; family: number }[]> = {
    'public.example': [{ address: '93.184.215.14', family: 4 }],
    'mixed.example': [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.7', family: 4 }],
    'inside.example': [{ address: 'fd00::7', family: 6 }],
  }
  const resolve = async (host: string) => {
    const found = dns[host]
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    return found
  }
  t.match(await checkTarget('https://public.example/hook', { allowPrivate: false, resolve }), { address: '93.184.215.14', family: 4 })
  await t.rejects(checkTarget('https://mixed.example/hook', { allowPrivate: false, resolve }), { message: 'Webhook URL https://mixed.example/hook is refused: its host resolves to 10.0.0.7, a private address' })
  await t.rejects(checkTarget('https://inside.example/', { allowPrivate: false, resolve }), /resolves to fd00::7, a private address/)
  await t.rejects(checkTarget('https://nowhere.example/', { allowPrivate: false, resolve }), /does not resolve \(ENOTFOUND\)/)
  await t.rejects(checkTarget('http://169.254.169.254/latest/meta-data/', { allowPrivate: false, resolve }), /169\.254\.169\.254 is a link-local address/)
  await t.rejects(checkTarget('http://localhost:9/', { allowPrivate: false }), /its host resolves to (127\.0\.0\.1|::1), a loopback address/, 'the system resolver: localhost')
  t.match(await checkTarget('https://inside.example/', { allowPrivate: true, resolve }), { address: 'fd00::7', family: 6 }, 'allowed with WEBHOOK_ALLOW_PRIVATE')
  await t.rejects(checkTarget('http://2130706433/', { allowPrivate: true, resolve }), /non-canonical/, 'non-canonical forms are refused even then')
})
