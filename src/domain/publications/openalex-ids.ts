/** OpenAlex ids arrive as "A123", "a123" or "https://openalex.org/A123"; this service keeps "A123". */
export function shortId(value: string, prefix: 'A' | 'W'): string | undefined {
  const match = new RegExp(`^(?:https?://(?:api\\.)?openalex\\.org/(?:\\w+/)?)?(${prefix}\\d{1,12})$`, 'i').exec(value.trim())
  return match ? match[1]!.toUpperCase() : undefined
}

/** "0000-0002-1825-0097", with or without the https://orcid.org/ prefix; the checksum digit may be X. */
export function orcid(value: string): string | undefined {
  const match = /^(?:https?:\/\/orcid\.org\/)?([0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{3}[0-9X])$/i.exec(value.trim())
  return match ? match[1]!.toUpperCase() : undefined
}
