/**
 * What other capabilities' pages use of record history: the History panel every record page shows,
 * and the source naming a record's history. The rest of history/ is its own.
 */
export { HistoryPanel } from './panel'
export { recordHistory, type HistorySource } from './routes'
