/** A time the API gave, in the reader's own format; a dash for none. The app's one date format. */
export function when(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString() : '—'
}
