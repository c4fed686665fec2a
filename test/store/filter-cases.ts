import type { Doc, Filter } from '../../src/store/port.js'

export interface Item extends Doc {
  name: string
  n?: number | string
  active?: boolean
  tags?: string[]
  scores?: number[]
  code?: string
  address?: { city?: string }
  parts?: { code?: string; qty?: number }[]
}

/** One data set for every filter case: each field is missing from some documents, and arrays are empty in some. */
export const items: readonly Item[] = [
  { _id: 'I/1', name: 'Alpha', n: 1, active: true, tags: ['x', 'y'], scores: [1, 10], code: 'CS 101', address: { city: 'Oslo' }, parts: [{ code: 'P1', qty: 2 }, { qty: 5 }] },
  { _id: 'I/2', name: 'beta', n: 2, active: false, tags: ['y'], scores: [6], code: 'CS 201', address: { city: 'Bergen' }, parts: [{ code: 'P2' }] },
  { _id: 'I/3', name: 'Gamma', n: 3, tags: [], scores: [9], code: 'MATH 101', address: {}, parts: [{ qty: 1 }] },
  { _id: 'I/4', name: 'delta', n: '4', code: 'CS 310', parts: [] },
  { _id: 'I/5', name: 'epsilon', tags: ['z'], code: 'C.S 1' },
]

export const allIds = items.map((item) => item._id)

/** Every filter form the port documents, with the ids it matches in `items` under MongoDB's semantics. */
export const filterCases: readonly { readonly name: string; readonly filter: Filter; readonly ids: readonly string[] }[] = [
  { name: 'empty filter', filter: {}, ids: allIds },
  { name: 'string scalar', filter: { name: 'beta' }, ids: ['I/2'] },
  { name: 'number scalar', filter: { n: 2 }, ids: ['I/2'] },
  { name: 'a number does not equal its string', filter: { n: 4 }, ids: [] },
  { name: 'a string does not equal its number', filter: { n: '4' }, ids: ['I/4'] },
  { name: 'boolean scalar', filter: { active: false }, ids: ['I/2'] },
  { name: 'scalar on an array matches any element', filter: { tags: 'y' }, ids: ['I/1', 'I/2'] },
  { name: '$eq', filter: { name: { $eq: 'Gamma' } }, ids: ['I/3'] },
  { name: '$eq on an array', filter: { scores: { $eq: 10 } }, ids: ['I/1'] },
  { name: '$ne matches missing fields', filter: { n: { $ne: 2 } }, ids: ['I/1', 'I/3', 'I/4', 'I/5'] },
  { name: '$ne on a boolean', filter: { active: { $ne: true } }, ids: ['I/2', 'I/3', 'I/4', 'I/5'] },
  { name: '$ne on an array: no element equals it', filter: { tags: { $ne: 'y' } }, ids: ['I/3', 'I/4', 'I/5'] },
  { name: '$in on a scalar field', filter: { n: { $in: [1, 3, 99] } }, ids: ['I/1', 'I/3'] },
  { name: '$in keeps types apart', filter: { n: { $in: ['4', 2] } }, ids: ['I/2', 'I/4'] },
  { name: '$in on an array field', filter: { tags: { $in: ['x', 'z'] } }, ids: ['I/1', 'I/5'] },
  { name: '$in with an empty list', filter: { tags: { $in: [] } }, ids: [] },
  { name: '$nin on a scalar field, missing fields included', filter: { n: { $nin: [1, 2] } }, ids: ['I/3', 'I/4', 'I/5'] },
  { name: '$nin on an array field', filter: { tags: { $nin: ['y'] } }, ids: ['I/3', 'I/4', 'I/5'] },
  { name: '$nin with an empty list', filter: { tags: { $nin: [] } }, ids: allIds },
  { name: '$gt on numbers leaves strings out', filter: { n: { $gt: 1 } }, ids: ['I/2', 'I/3'] },
  { name: '$gte and $lte on numbers', filter: { n: { $gte: 2, $lte: 3 } }, ids: ['I/2', 'I/3'] },
  { name: '$lt on numbers', filter: { n: { $lt: 2 } }, ids: ['I/1'] },
  { name: '$gt on strings leaves numbers out', filter: { n: { $gt: '3' } }, ids: ['I/4'] },
  { name: '$gte and $lt on strings', filter: { code: { $gte: 'CS', $lt: 'CT' } }, ids: ['I/1', 'I/2', 'I/4'] },
  { name: '$lte on strings compares code units', filter: { name: { $lte: 'Gamma' } }, ids: ['I/1', 'I/3'] },
  { name: 'range bounds on an array may hold for different elements', filter: { scores: { $gt: 5, $lt: 8 } }, ids: ['I/1', 'I/2'] },
  { name: '$exists true: an empty array is present', filter: { tags: { $exists: true } }, ids: ['I/1', 'I/2', 'I/3', 'I/5'] },
  { name: '$exists false', filter: { tags: { $exists: false } }, ids: ['I/4'] },
  { name: '$exists on a dotted path into a subdocument', filter: { 'address.city': { $exists: true } }, ids: ['I/1', 'I/2'] },
  // Reads and writes of the embedded store once used different filter engines, which disagreed here:
  // `find` matched two documents and `updateMany` none.
  { name: '$exists true on a dotted path into an array of subdocuments', filter: { 'parts.code': { $exists: true } }, ids: ['I/1', 'I/2'] },
  { name: '$exists false on a dotted path into an array of subdocuments', filter: { 'parts.code': { $exists: false } }, ids: ['I/3', 'I/4', 'I/5'] },
  { name: 'dotted equality into a subdocument', filter: { 'address.city': 'Oslo' }, ids: ['I/1'] },
  { name: 'dotted equality into an array of subdocuments', filter: { 'parts.code': 'P2' }, ids: ['I/2'] },
  { name: 'dotted $in into an array of subdocuments', filter: { 'parts.code': { $in: ['P1', 'P9'] } }, ids: ['I/1'] },
  { name: 'dotted $ne into an array of subdocuments', filter: { 'parts.code': { $ne: 'P1' } }, ids: ['I/2', 'I/3', 'I/4', 'I/5'] },
  { name: 'dotted range into an array of subdocuments', filter: { 'parts.qty': { $gte: 5 } }, ids: ['I/1'] },
  { name: '$prefix', filter: { code: { $prefix: 'CS ' } }, ids: ['I/1', 'I/2', 'I/4'] },
  { name: '$prefix is case-sensitive', filter: { name: { $prefix: 'a' } }, ids: [] },
  { name: '$prefix never matches a number', filter: { n: { $prefix: '1' } }, ids: [] },
  { name: '$prefix metacharacters are literal', filter: { code: { $prefix: 'C.' } }, ids: ['I/5'] },
  { name: '$prefix on an array matches any element', filter: { tags: { $prefix: 'z' } }, ids: ['I/5'] },
  { name: '$prefix on a dotted path into an array of subdocuments', filter: { 'parts.code': { $prefix: 'P' } }, ids: ['I/1', 'I/2'] },
  { name: '$iprefix', filter: { name: { $iprefix: 'a' } }, ids: ['I/1'] },
  { name: '$iprefix in upper case', filter: { name: { $iprefix: 'GAM' } }, ids: ['I/3'] },
  { name: 'a regular expression in $iprefix matches nothing', filter: { code: { $iprefix: '.*' } }, ids: [] },
  { name: '$or', filter: { $or: [{ name: 'beta' }, { n: { $gte: 3 } }] }, ids: ['I/2', 'I/3'] },
  { name: '$or with dotted $exists', filter: { $or: [{ 'parts.code': { $exists: true } }, { tags: { $exists: false } }] }, ids: ['I/1', 'I/2', 'I/4'] },
  { name: '$and with a nested $or', filter: { $and: [{ n: { $gte: 2 } }, { $or: [{ tags: 'y' }, { code: { $prefix: 'MATH' } }] }] }, ids: ['I/2', 'I/3'] },
  { name: 'conditions on several fields all apply', filter: { code: { $prefix: 'CS' }, n: { $lt: 3 } }, ids: ['I/1', 'I/2'] },
]
