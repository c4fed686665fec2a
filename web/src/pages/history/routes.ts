import { api, type Answer } from '../../api/client'
import type { paths } from '../../api/schema'
import type { RecordRoute } from '../../lib/history'

type DetailPath = `${RecordRoute}/{id}`
type HistoryPath = `${RecordRoute}/{id}/history`
type RestorePath<B extends RecordRoute> = `${B}/{id}/restore`

export type HistoryPage = Answer<paths[HistoryPath]['get']>
export type HistoryEntry = HistoryPage['items'][number]
/** A restore's answer: the record as restored, of the route's own type (as its detail route answers it). */
export type Restored<B extends RecordRoute> = Answer<paths[RestorePath<B>]['post']>

export function readHistory(base: RecordRoute, id: string, page: { limit: number; offset: number }): Promise<HistoryPage> {
  return api('get', `${base}/{id}/history` as HistoryPath, { path: { id }, query: page })
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
