import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { buildModel } from '../../src/schema/check.js'
import { loadSchemaFiles } from '../../src/schema/load.js'
import { recordTypesFile, renderRecordTypes } from '../../src/schema/record-types.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

t.test('the checked-in record types are what the class schema gives now (else: npm run schema:types)', async (t) => {
  const model = buildModel(await loadSchemaFiles(`${root}schema`))
  t.equal(await readFile(`${root}${recordTypesFile}`, 'utf8'), renderRecordTypes(model))
})

t.test('a class becomes a type with its parent, its enums, references as ids and optional fields optional', async (t) => {
  const docs = (comment: string, properties: Record<string, string>) => ({ '@documentation': { '@comment': comment, '@properties': properties } })
  const model = buildModel([{
    file: 'zoo.json',
    definitions: [
      { '@type': 'Enum', '@id': 'Diet', '@documentation': { '@comment': 'What it eats' }, '@value': ['plants', 'meat'] },
      {
        '@type': 'Class', '@id': 'Tag', '@subdocument': [], '@key': { '@type': 'Random' }, ...docs('A label', { label: 'Text', notes: 'Remarks' }),
        label: 'xsd:string', notes: { '@type': 'List', '@class': 'xsd:string' },
      },
      {
        '@type': 'Class', '@id': 'Animal', '@abstract': [], '@key': { '@type': 'Random' }, '@metadata': { collection: 'animals' },
        ...docs('An animal', { name: 'Its name', diet: 'Its diet', tags: 'Its labels' }),
        name: 'xsd:string', diet: { '@type': 'Optional', '@class': 'Diet' }, tags: { '@type': 'Set', '@class': 'Tag' },
      },
      {
        '@type': 'Class', '@id': 'Cat', '@inherits': 'Animal', '@key': { '@type': 'Random' }, ...docs('A cat', { lives: 'Lives left', friend: 'Its friend' }),
        lives: 'xsd:integer', friend: { '@type': 'Optional', '@class': 'Animal' },
      },
      { '@type': 'Class', '@id': 'Dog', '@inherits': 'Animal', '@key': { '@type': 'Random' }, ...docs('A dog', { good: 'Whether good' }), good: 'xsd:boolean' },
    ],
  }])
  const text = renderRecordTypes(model)
  t.match(text, "/** What it eats */\nexport type Diet = 'plants' | 'meat'\n")
  t.match(text, '/** A label */\nexport type Tag = {\n  /** Text */\n  label: string\n  /** Remarks */\n  notes?: string[]\n}\n',
    "a subdocument's lists are optional: only a record's are filled in when left out")
  t.match(text, "/** An animal */\nexport type Animal = SystemFields & {\n  type: 'Cat' | 'Dog'\n  /** Its name */\n  name: string\n"
    + '  /** Its diet */\n  diet?: Diet\n  /** Its labels */\n  tags: Tag[]\n}\n')
  t.match(text, "/** A cat */\nexport type Cat = Animal & {\n  type: 'Cat'\n  /** Lives left */\n  lives: number\n"
    + '  /** Its friend (the id of the referenced Animal) */\n  friend?: string\n}\n', 'inherited fields come from the parent')
  t.match(text, 'export interface RecordTypes {\n  Animal: Cat | Dog\n  Cat: Cat\n  Dog: Dog\n}\n', "an abstract class's records are its subclasses'")
})
