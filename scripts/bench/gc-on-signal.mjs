// Loaded into the service the record history benchmark measures (node --expose-gc --import this file;
// settled-memory.ts): on SIGWINCH, a full garbage collection, then the memory Node counts for the
// process written to BENCH_MEMORY_FILE. SIGWINCH because the service stops on SIGUSR2 (close-with-grace)
// and Node keeps SIGUSR1 for its inspector; without this file loaded the signal is ignored. Plain
// JavaScript: the service runs its built code, not tsx.
import { writeFileSync } from 'node:fs'

const file = process.env.BENCH_MEMORY_FILE

process.on('SIGWINCH', () => {
  globalThis.gc?.()
  if (file) writeFileSync(file, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }))
})
