import { gunzipSync } from 'node:zlib'
import t from 'tap'
import { adapters, department, personUrl } from './department.js'

/** Polls until the URL is answered from the cache in its compressed form, or gives up after `ms`. */
async function compressedHit(get: () => Promise<{ headers: Record<string, unknown> }>, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if ((await get()).headers['content-encoding'] === 'gzip') return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return false
}

for (const adapter of adapters) {
  t.test(`${adapter}: a large cached answer goes out gzip-compressed to clients that accept it`, async (t) => {
    const { admin } = await department(t, adapter)
    for (let i = 0; i < 12; i++) {
      const created = await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: `Zoë ${i}`, last_name: 'Łukasiewicz', email: `z${i}@dept.edu` } })
      t.equal(created.statusCode, 201)
    }
    const url = '/api/people?type=Faculty'
    const plain = await admin({ method: 'GET', url })
    t.equal(plain.headers['x-cache'], 'miss')
    t.ok(plain.rawPayload.length >= 1024, `the answer is large enough to compress (${plain.rawPayload.length} bytes)`)
    t.equal(plain.headers.vary, 'accept-encoding', 'a miss says the answer varies with Accept-Encoding')
    const gzipped = () => admin({ method: 'GET', url, headers: { 'accept-encoding': 'br;q=1.0, gzip;q=0.8, *;q=0.1' } })
    t.ok(await compressedHit(gzipped), 'once compressed, hits come gzipped')

    const hit = await gzipped()
    t.equal(hit.headers['x-cache'], 'hit')
    t.equal(hit.headers.vary, 'accept-encoding')
    t.equal(hit.headers['content-type'], plain.headers['content-type'])
    t.ok(hit.rawPayload.length < plain.rawPayload.length / 2, `smaller: ${hit.rawPayload.length} bytes`)
    t.same(gunzipSync(hit.rawPayload), plain.rawPayload, 'the same bytes once decompressed')

    for (const accept of [undefined, 'identity', 'gzip;q=0', 'br', 'deflate, gzip;q=0']) {
      const res = await admin({ method: 'GET', url, headers: accept === undefined ? {} : { 'accept-encoding': accept } })
      t.equal(res.headers['x-cache'], 'hit', `${accept ?? 'no Accept-Encoding'}: a hit`)
      t.equal(res.headers['content-encoding'], undefined, `${accept ?? 'no Accept-Encoding'}: not compressed`)
      t.equal(res.body, plain.body, `${accept ?? 'no Accept-Encoding'}: the same body`)
    }
  })

  t.test(`${adapter}: the compressed form has a weak ETag; small answers are not compressed`, async (t) => {
    const { admin, ids } = await department(t, adapter)
    const url = personUrl(ids.advisor)
    const plain = await admin({ method: 'GET', url })
    t.equal(plain.headers.etag, '"1"')
    t.ok(plain.rawPayload.length < 1024, 'one person is a small answer')
    const accepting = await admin({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } })
    t.equal(accepting.headers['x-cache'], 'hit')
    t.equal(accepting.headers['content-encoding'], undefined, 'a small answer is sent as it is')
    t.equal(accepting.headers.etag, '"1"')

    const course = await admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'CS 499', title: 'Capstone', description: 'A long description of the capstone. '.repeat(40) } })
    const courseUrl = `/api/courses/${encodeURIComponent(course.json()._id)}`
    const first = await admin({ method: 'GET', url: courseUrl })
    t.equal(first.headers.etag, '"1"', 'the uncompressed answer keeps the strong ETag')
    const zipped = () => admin({ method: 'GET', url: courseUrl, headers: { 'accept-encoding': 'gzip' } })
    t.ok(await compressedHit(zipped), 'a large record is compressed')
    t.equal((await zipped()).headers.etag, 'W/"1"', 'the compressed form carries the weak ETag')
    t.equal((await admin({ method: 'GET', url: courseUrl })).headers.etag, '"1"', 'the uncompressed hit the strong one')
    const update = await admin({ method: 'PUT', url: courseUrl, headers: { 'if-match': 'W/"1"' }, payload: { title: 'Capstone Project' } })
    t.equal(update.statusCode, 200, 'the weak ETag is accepted back as If-Match')
  })
}
