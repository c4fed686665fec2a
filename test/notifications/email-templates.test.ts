import t from 'tap'
import { eventTypes } from '../../src/domain/notifications/events.js'
import { eventTemplates, eventVars, digestSummary, fill, oneLine, renderDigest, renderEvent } from '../../src/notifications/email/templates.js'

t.test('every event type has a template, and each renders with nothing left unfilled', async (t) => {
  t.same(Object.keys(eventTemplates).sort(), [...eventTypes].sort())
  for (const type of eventTypes) {
    const rendered = renderEvent(type, eventVars({ title: 'Tides', stage: 'advisor' }, 'https://dept.example.edu/approvals/thesis/T%2F1'))
    for (const [part, text] of Object.entries(rendered)) t.notMatch(text, /\{\{|\}\}/, `${type} ${part}`)
    t.match(rendered.subject, 'Tides', `${type}: the subject names it`)
    t.match(rendered.text, 'https://dept.example.edu/approvals/thesis/T%2F1', `${type}: the text links to it`)
    t.match(rendered.html, 'href="https://dept.example.edu/approvals/thesis/T%2F1"', `${type}: so does the HTML`)
  }
})

t.test('values are escaped in the HTML part and made one line everywhere', async (t) => {
  const rendered = renderEvent('workflow.approved', eventVars({ title: '<script>alert("x")</script> & \'more\'\r\nBcc: e@x.example' }, 'https://d.example/a?b=1&c=2'))
  t.equal(rendered.subject, 'Approved: <script>alert("x")</script> & \'more\' Bcc: e@x.example', 'the subject is a single line')
  t.notMatch(rendered.html, '<script>')
  t.match(rendered.html, '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;')
  t.match(rendered.html, 'href="https://d.example/a?b=1&amp;c=2"')
  t.match(rendered.text, '"<script>alert("x")</script> & \'more\' Bcc: e@x.example" was approved.', 'the text part is plain')
  t.equal(oneLine('a\r\nb\u2028c\u0000d\te'), 'a b c d e')
  t.throws(() => fill('{{missing}}', {}), /names \{\{missing\}\}/, 'a template naming a value it is not given is a fault')
})

t.test('a digest lists each entry, in sections only when they have entries', async (t) => {
  const only = renderDigest('daily', [{ title: 'A & B', link: 'https://d.example/1', stage: 'advisor stage', due: 'due 2025-03-10' }], [])
  t.equal(only.subject, 'Your daily digest: 1 awaiting your decision')
  t.match(only.text, '- A & B: advisor stage, due 2025-03-10\n  https://d.example/1')
  t.notMatch(only.text, 'Other updates')
  t.match(only.html, '<li><a href="https://d.example/1">A &amp; B</a>: advisor stage, due 2025-03-10</li>')
  const news = renderDigest('weekly', [], [{ what: 'Approved: Tides', link: 'https://d.example/2' }])
  t.equal(news.subject, 'Your weekly digest: 1 update')
  t.match(news.text, 'Other updates (1)\n\n- Approved: Tides\n  https://d.example/2')
  t.notMatch(news.text, 'Awaiting your decision')
  const both = renderDigest('daily', [
    { title: 'A', link: 'https://d.example/1', stage: 's', due: 'd' },
    { title: 'B', link: 'https://d.example/3', stage: 's', due: 'd' },
  ], [{ what: 'Approved: Tides', link: 'https://d.example/2' }, { what: 'Approved: Waves', link: 'https://d.example/4' }])
  t.equal(both.subject, 'Your daily digest: 2 awaiting your decision, 2 other updates', 'plural, and "other" beside what awaits')
  t.equal(digestSummary(1, 1), '1 awaiting your decision, 1 other update')
  t.equal(digestSummary(0, 3), '3 updates')
})
