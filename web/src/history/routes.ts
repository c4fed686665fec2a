import { api, type Answer } from '../api/client'
import type { paths } from '../api/schema'
import type { RecordRoute } from './changes'
import type { Domain } from '../lib/domains'

type DetailPath = `${RecordRoute}/{id}`
type RestorePath<B extends RecordRoute> = `${B}/{id}/restore`

/**
 * The routes that answer a history (docs/history.md): a record route's own, and those of records without a
 * resource of their own, beside the route that serves them. A workflow entity's is `/revisions`: its
 * `/history` is the approvals' actions, another shape. Only the record routes have a restore.
 */
type OneIdPath = `${RecordRoute}/{id}/history` | '/api/student-plans/{id}/history' | `${Domain['base']}/{id}/revisions`
type EnrollmentPath = '/api/students/{id}/enrollments/{enrollmentId}/history'
export type HistoryPath = OneIdPath | EnrollmentPath

/** Which history a panel reads: its route and the route's path parameters. */
export type HistorySource =
  | { readonly path: OneIdPath; readonly params: { readonly id: string } }
  | { readonly path: EnrollmentPath; readonly params: { readonly id: string; readonly enrollmentId: string } }

export type HistoryPage = Answer<paths[HistoryPath]['get']>
export type HistoryEntry = HistoryPage['items'][number]
/** A restore's answer: the record as restored, of the route's own type (as its detail route answers it). */
export type Restored<B extends RecordRoute> = Answer<paths[RestorePath<B>]['post']>

/** A record route's history of one record. */
export function recordHistory(base: RecordRoute, id: string): HistorySource {
  return { path: `${base}/{id}/history`, params: { id } }
}

export function readHistory(source: HistorySource, page: { limit: number; offset: number }): Promise<HistoryPage> {
  // The routes share one answer shape (HistoryPage is their union); the cast only joins their path parameters.
  return api('get', source.path as OneIdPath, { path: source.params as { id: string }, query: page })
}

/** The record as it is now. */
export async function readRecord<B extends RecordRoute>(base: B, id: string): Promise<Restored<B>> {
  const record = await api('get', `${base}/{id}` as DetailPath, { path: { id } })
  return record as Restored<B>
}

/** Restores `version`, conditional on the record still being at `current`: one changed since is refused (409), not overwritten. */
export async function restoreVersion<B extends RecordRoute>(base: B, id: string, version: number, current: number): Promise<Restored<B>> {
  const restored = await api('post', `${base}/{id}/restore` as RestorePath<RecordRoute>, { path: { id }, body: { version }, headers: { 'if-match': `"${current}"` } })
  return restored as Restored<B>
}
