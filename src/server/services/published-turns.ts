// The one place that hears when a published turn's pages must be made again: a rollback withdraws
// the report, a re-publication replaces it. Today nothing keeps published turn pages, so there is
// nothing to drop; a cache of published turns (docs/performance.md) hooks in here by this name.
export function invalidatePublishedTurn(_gameId: string, _turn: number): void {
  // No cache of published turn pages exists yet: every page is rendered from the database.
}
