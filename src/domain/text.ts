// Letters that Unicode decomposition leaves whole, spelled as people type them without the accent.
const plainLetters: Readonly<Record<string, string>> = { ø: 'o', æ: 'ae', œ: 'oe', ł: 'l', ß: 'ss', đ: 'd', ð: 'd', ı: 'i', þ: 'th' }

/** Lower case, accents removed: "Émile" and "emile" compare equal, as do "Søren" and "soren". */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[øæœłßđðıþ]/g, (c) => plainLetters[c]!)
}

/** The words of a text, folded: letters and digits, split on anything else. */
export function words(text: string): string[] {
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean)
}
