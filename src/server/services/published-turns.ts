// The one place that hears when a published turn's pages must be made again: a rollback withdraws
// the report, a re-publication replaces it. The pages of published turns are kept in memory
// (services/published-pages.ts); this drops the turn's pages, for every viewer, in every store of
// the process. Each kept page is also checked on use against the turn's revision, so a write that
// forgot to call this is still never served stale; calling it frees the memory at once.
import { forgetPublishedTurn } from './published-pages.js'

export function invalidatePublishedTurn(gameId: string, turn: number): void {
  forgetPublishedTurn(gameId, turn)
}
