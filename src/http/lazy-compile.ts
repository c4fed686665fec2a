type Compiled<F> = F extends (...args: infer A) => infer R ? (...args: A) => R : never

/**
 * Compiles on first use instead of at start-up. Every route's validators are code generated from their
 * schemas, which made start-up slow; compiled lazily, a route pays a few milliseconds on its first
 * request instead. The test suite calls every route, so a schema that does not compile still fails a test.
 */
export function lazy<F extends (...args: never[]) => unknown>(compile: () => F): Compiled<F> & { errors?: unknown } {
  let compiled: F | undefined
  const run = ((...args: Parameters<F>) => {
    compiled ??= compile()
    const result = compiled(...args)
    // Ajv-style validators report their errors on the function itself.
    run.errors = (compiled as F & { errors?: unknown }).errors
    return result
  }) as Compiled<F> & { errors?: unknown }
  return run
}
