import type { Random } from './random.js'

// Names from many places, several with letters outside ASCII, so search, sorting and id folding get
// exercised by ordinary data.
const firstNames = [
  'José', 'Zoë', 'Ngozi', 'Søren', 'Renée', 'François', 'Chloé', 'Björn', 'Łukasz', 'Siobhán', 'Thảo', 'Mónica',
  'Anaïs', 'Émile', 'Jürgen', 'Håkon', 'Inés', 'Raúl', 'Ximena', 'Dağhan', 'Małgorzata', 'Zoltán', 'Ana', 'Wei',
  'Priya', 'Kwame', 'Aisha', 'Hiroshi', 'Yuki', 'Fatima', 'Mateo', 'Olusegun', 'Ingrid', 'Dmitri', 'Leila', 'Sofia',
  'Liam', 'Emma', 'Noah', 'Olivia', 'Ethan', 'Grace', 'Daniel', 'Hannah', 'Samuel', 'Maya', 'David', 'Sarah',
  'Michael', 'Laura', 'James', 'Rachel', 'Arjun', 'Meera', 'Tariq', 'Amara', 'Chen', 'Mei', 'Jae-won', 'Min-jun',
  'Ravi', 'Lakshmi', 'Omar', 'Yasmin', 'Kofi', 'Adaeze', 'Pedro', 'Lucía', 'Tomás', 'Camila', 'Nikolai', 'Anya',
  'Erik', 'Astrid', 'Kenji', 'Aiko', 'Mohammed', 'Nadia', 'Isaac', 'Esther', 'Luca', 'Giulia', 'Felix', 'Clara',
] as const

const lastNames = [
  'Nguyễn', 'Müller', 'García', 'Okafor', 'Kowalski', 'Ødegaard', 'Pérez', 'Núñez', 'Schröder', 'Lefèvre',
  'Çelik', 'Yılmaz', 'Dvořák', 'Horváth', 'Jäger', 'Søndergaard', 'Rodríguez', 'Hernández', 'Martínez', 'Gómez',
  'Smith', 'Johnson', 'Chen', 'Wang', 'Patel', 'Kim', 'Lee', 'Singh', 'Tanaka', 'Sato', 'Adeyemi', 'Mensah',
  'Okonkwo', 'Ivanova', 'Petrov', 'Novak', "O'Brien", 'Murphy', 'Brown', 'Wilson', 'Taylor', 'Anderson', 'Thomas',
  'Moore', 'Jackson', 'White', 'Harris', 'Clark', 'Lewis', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott',
  'Green', 'Baker', 'Adams', 'Nelson', 'Hill', 'Campbell', 'Mitchell', 'Roberts', 'Carter', 'Phillips', 'Evans',
  'Turner', 'Torres', 'Parker', 'Collins', 'Edwards', 'Stewart', 'Flores', 'Morris', 'Rossi', 'Bianchi', 'Haddad',
  'Khan', 'Rahman', 'Ali', 'Hussain', 'Das', 'Gupta', 'Iyer', 'Reddy', 'Park', 'Choi', 'Zhang', 'Liu', 'Huang',
  'Lindqvist', 'Berg', 'Virtanen', 'Dubois', 'Moreau', 'Fischer', 'Weber', 'Van der Meer', 'De Souza', 'Silva',
] as const

export interface PersonName {
  readonly first: string
  readonly last: string
}

export function randomName(random: Random): PersonName {
  return { first: random.pick(firstNames), last: random.pick(lastNames) }
}

// Letters that Unicode decomposition leaves whole.
const plain: Record<string, string> = { ø: 'o', æ: 'ae', ł: 'l', ß: 'ss', đ: 'd', ı: 'i', þ: 'th', œ: 'oe' }

/** Lower-case ASCII letters only: "Søren" becomes "soren", "O'Brien" becomes "obrien". */
export function asciiLetters(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/[øæłßđıþœ]/g, (c) => plain[c] ?? '').replace(/[^a-z]/g, '')
}

/**
 * Hands out NetID-style campus ids (first initial and up to seven letters of the family name, then a
 * number when that is taken), unique across everything one generator run makes.
 */
export class NetIds {
  private readonly taken = new Set<string>()

  next(name: PersonName): string {
    const base = `${asciiLetters(name.first).slice(0, 1)}${asciiLetters(name.last).slice(0, 7)}`
    let id = base
    for (let n = 2; this.taken.has(id); n++) id = `${base}${n}`
    this.taken.add(id)
    return id
  }
}
