/**
 * The app's one way of showing the API's times, in the reader's own locale: `when` a moment (date and
 * time), `day` its date alone. Each says `none` (a dash unless given) for a time the API left out.
 */
export function when(value: string | null | undefined, none = '—'): string {
  return value ? new Date(value).toLocaleString() : none
}

export function day(value: string | null | undefined, none = '—', style: 'short' | 'long' = 'short'): string {
  return value ? new Date(value).toLocaleDateString(undefined, style === 'long' ? { dateStyle: 'long' } : undefined) : none
}
