/** How a column sorts through the list route: its key in the address, and the API's `sort` fields. */
export interface SortKey {
  /** In the address: `?sort=name`, `?sort=-name` for descending. */
  readonly key: string
  /** The route's sortable fields, ascending, comma-separated: "last_name,first_name". */
  readonly fields: string
}

export interface Sorted {
  /** The column sorted by, or none when the address names a sort no column has. */
  readonly key: string | undefined
  readonly descending: boolean
  /** The API's `sort`; undefined when the address names none, so the route's own default applies. */
  readonly api: string | undefined
}

/** The API's `sort` for these fields in this direction: each field descending, as the route reads "-a,-b". */
export function apiSort(fields: string, descending: boolean): string {
  return fields.split(',').map((f) => (descending ? `-${f}` : f)).join(',')
}

/**
 * The sort the address asks for, among the columns the API sorts; without one, the route's default,
 * which the page names so its column shows the order the rows are in.
 */
export function sortOf(param: string, columns: readonly { readonly sort?: SortKey }[], fallback?: { readonly key: string; readonly descending: boolean }): Sorted {
  const descending = param.startsWith('-')
  const key = param.replace(/^-/, '')
  const column = columns.find((c) => c.sort?.key === key)?.sort
  if (column) return { key, descending, api: apiSort(column.fields, descending) }
  return { key: fallback?.key, descending: fallback?.descending ?? false, api: undefined }
}
