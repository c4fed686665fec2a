import { readFile } from 'node:fs/promises'
import t from 'tap'
import { serviceArgs } from '../../scripts/bench/processes.js'

// The benchmark must measure the service as it is deployed: npm start, the container and the bench
// start the same command with the same V8 flags.
t.test('npm start, the Dockerfile and the benchmark run the service alike', async (t) => {
  const command = serviceArgs.join(' ')
  const start = (JSON.parse(await readFile('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start
  t.ok(start.endsWith(`node ${command}`), `npm start ends with node ${command}`)
  const cmd = /^CMD (.+)$/m.exec(await readFile('Dockerfile', 'utf8'))?.[1]
  t.same(JSON.parse(cmd ?? '[]'), ['node', ...serviceArgs], 'the container runs the same command')
})
