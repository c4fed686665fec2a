import nedb from '@seald-io/nedb'

// The package's typings declare an ES default export, but it is a CommonJS module whose exports object
// is the class itself; under NodeNext the typed `.default` is undefined at run time.
export type Datastore<T> = nedb.default<T>
export const Datastore = nedb as unknown as typeof nedb.default
