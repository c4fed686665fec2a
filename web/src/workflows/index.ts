/**
 * What other capabilities' pages (the dashboard) use of the workflows: the caller's own requests,
 * read in every domain, and how a request is titled. The rest of workflows/ is its own.
 */
export { isOpen, ownRequests, planNamesOf, titleOf, type Listed, type Row } from './own-requests'
export type { RequestEntity } from './request-kinds'
