import t from 'tap'
import { fold, words } from '../../src/domain/text.js'

t.test('folding drops case and accents, including letters decomposition keeps whole', async (t) => {
  const pairs: [string, string][] = [
    ['José Núñez', 'jose nunez'], ['MÜLLER', 'muller'], ['Søren Ødegaard', 'soren odegaard'], ['Łukasz', 'lukasz'],
    ['Straße', 'strasse'], ['Æsir Œuvre', 'aesir oeuvre'], ['Dağhan Yılmaz', 'daghan yilmaz'], ['Þór Đorđe', 'thor dorde'],
    ['Nguyễn Thảo', 'nguyen thao'], ['İstanbul', 'istanbul'],
  ]
  for (const [text, folded] of pairs) t.equal(fold(text), folded, text)
})

t.test('words split on anything but letters and digits', async (t) => {
  t.same(words("O'Brien, Van der Meer (CS 101)"), ['o', 'brien', 'van', 'der', 'meer', 'cs', '101'])
  t.same(words('jsmith@dept.example.edu'), ['jsmith', 'dept', 'example', 'edu'])
  t.same(words(' .* '), [])
})
