/** The message to show for a refusal or failure: the server's own (ApiError is an Error), else the value in words. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
