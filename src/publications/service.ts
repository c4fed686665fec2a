import type { Principal } from '../auth/principal.js'
import { normalizeDoi } from '../domain/publications/normalize.js'
import { PermissionDenied } from '../errors.js'
import { isAdmin, type People } from '../privacy/relations.js'
import type { ApiRecord, RecordService, WriteBy } from '../records/service.js'
import { importedWorkId, isPublication, withEditedFields } from './user-edits.js'

export const ownershipRule = "Permission denied: only the publication's department authors (dept_authors), a holder of manage_profiles or an admin may change or delete it"

/**
 * The writes of publications after their creation (docs/privacy.md, "Publications: who may change them"): who owns one, and the import's rules
 * that a person's changes must keep. Changing or deleting a publication needs the caller among its
 * `dept_authors` (by their linked Person; an API key acts as its owner here, and only as an author: a
 * key carries neither admin rights nor manage_profiles), or manage_profiles, or the admin role. A field
 * a person changes is marked edited, so later imports keep it; deleting an imported publication rejects
 * its work first, so that no failure between the two writes lets an import bring it back.
 */
export class PublicationService {
  constructor(private readonly records: RecordService, private readonly people: People, private readonly now: () => Date = () => new Date()) {}

  async assertOwner(principal: Principal, publication: ApiRecord): Promise<void> {
    if (isAdmin(principal) || (principal.kind === 'user' && principal.permissions.has('manage_profiles'))) return
    const authors = isPublication(publication) ? publication.dept_authors : []
    const me = authors.length ? await this.people.linkedPerson(principal) : null
    if (!me || !authors.includes(me._id)) throw new PermissionDenied(ownershipRule)
  }

  /** The caller's update, once they own the publication; imported fields it changes are marked edited. */
  async update(principal: Principal, current: ApiRecord, patch: Readonly<Record<string, unknown>>, options: { expectVersion?: number } & WriteBy): Promise<ApiRecord> {
    await this.assertOwner(principal, current)
    return this.records.update(current._id, withEditedFields(current, patch), options)
  }

  /** Deletes the publication once the caller owns it; an imported one is rejected before it is removed. */
  async remove(principal: Principal, current: ApiRecord, by: WriteBy): Promise<void> {
    await this.assertOwner(principal, current)
    await this.reject(current, by)
    await this.records.remove(current._id, by)
  }

  /**
   * Remembers an imported publication's work as rejected, so later imports leave it out. Written before
   * the publication is removed: if the removal then fails, the publication is still there to delete again
   * and no import brings it back meanwhile; the other order could lose the rejection.
   */
  private async reject(publication: ApiRecord, by: WriteBy): Promise<void> {
    const workId = importedWorkId(publication)
    if (!workId || !isPublication(publication) || (await this.records.get(`RejectedWork/${workId}`))) return
    const doi = normalizeDoi(publication.doi)
    await this.records.create('RejectedWork', { work_id: workId, ...(doi ? { doi } : {}), title: publication.title.slice(0, 2000), rejected_at: this.now().toISOString() }, { actor: by.actor, key: workId })
  }
}
