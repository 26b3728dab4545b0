// Who follows which game live, and telling them when it changes. Changes are found, not
// announced: four times a second, for the games someone follows (and only those), a cheap
// signature of the game is read from the database (status, current turn and its status, how
// many programs are in, the deadline, published turns), with a mark of its messages. Every way a
// game changes — a page, the API, the GM console, the scheduler closing a turn — shows there, and no service has to remember
// to call anyone. When a game's signature moves, each follower's own view is worked out again
// (state.ts) and sent if it differs from what that follower was last told.
import type { GameRow } from '../repositories/games.js'
import type { ServiceContext } from '../services/context.js'
import { changeOf, memberLiveState, publicLiveState, type MemberLiveState, type PublicLiveState } from './state.js'

export interface LiveMessage { id: string; event: 'update'; data: (PublicLiveState | MemberLiveState) & { kind: string; message: string } }

export interface Follower {
  gameId: string
  /** The signed-in member following, or null for a spectator (public view only). */
  userId: number | null
  last: PublicLiveState | MemberLiveState | null
  send(message: LiveMessage): void
  /**
   * Whether the follower may still follow: asked before anything more is told, since a stream
   * outlives the request that opened it (a member removed from the game or signed out everywhere
   * must not go on being told a member's view: test/security/live-after-removal.test.ts).
   */
  mayFollow(): boolean
  /** Ends the stream (the follower stops following when it has closed). */
  end(): void
}

export const POLL_MS = 250

/** The game's signature: it changes whenever anything a live page shows may have changed. */
export function signature(ctx: ServiceContext, game: GameRow): string {
  const turn = ctx.turns.current(game.id)
  const programs = turn && turn.status === 'open' ? ctx.turns.latestSubmissions(turn.id).length : 0
  return [game.status, turn?.id ?? 0, turn?.status ?? '', turn?.deadline ?? 0, turn?.reopened_player_id ?? '', programs, ctx.turns.publishedNumbers(game.id).length].join('.')
}

/**
 * The id a follower's messages carry (and send back as Last-Event-ID): members get the full
 * signature and the mark of the threads they may read; spectators one without the count of programs in or the reopened player, which their
 * page does not show either (docs/security.md).
 */
export function idFor(ctx: ServiceContext, game: GameRow, userId: number | null, full: string, view: PublicLiveState | MemberLiveState): string {
  // A member's id carries the mark of their own threads only: another thread's message never moves it.
  if (userId !== null) return `${full}.${'messages' in view ? view.messages : ''}`
  const turn = ctx.turns.current(game.id)
  return ['public', game.status, turn?.id ?? 0, turn?.status ?? '', turn?.deadline ?? 0, ctx.turns.publishedNumbers(game.id).length].join('.')
}

export function viewFor(ctx: ServiceContext, game: GameRow, userId: number | null): PublicLiveState | MemberLiveState {
  return userId === null ? publicLiveState(ctx, game) : memberLiveState(ctx, game, userId)
}

export function liveHub(ctx: ServiceContext) {
  const followers = new Map<string, Set<Follower>>()
  const signatures = new Map<string, string>()
  let timer: NodeJS.Timeout | null = null

  /** Tells one follower the game as it is now, if that differs from what it was last told. */
  const tell = (follower: Follower, game: GameRow, id: string) => {
    if (!follower.mayFollow()) return follower.end()
    const now = viewFor(ctx, game, follower.userId)
    const change = changeOf(follower.last, now)
    follower.last = now
    if (change) follower.send({ id: idFor(ctx, game, follower.userId, id, now), event: 'update', data: { ...now, ...change } })
  }

  /**
   * What the poll compares: the signature and a mark of every message of the game. The latter is
   * for this check only and is never sent: whom a message concerns is worked out per follower
   * (state.ts), so a private thread's message moves nothing in anyone else's stream.
   */
  const changeKey = (game: GameRow, id: string) => `${id}|${ctx.messages.changeMark(game.id)}`

  const poll = () => {
    for (const [gameId, set] of followers) {
      const game = ctx.games.byId(gameId)
      if (!game) continue
      const id = signature(ctx, game)
      const key = changeKey(game, id)
      if (signatures.get(gameId) === key) continue
      signatures.set(gameId, key)
      for (const follower of set) tell(follower, game, id)
    }
  }

  return {
    /**
     * Starts following: the follower is told the game as it is at once. `lastEventId` is the
     * signature the browser saw last (EventSource sends it on reconnecting): when the game moved
     * on meanwhile, the first message says it is a catch-up.
     */
    follow(follower: Follower, lastEventId: string | null): () => void {
      const game = ctx.games.byId(follower.gameId)
      if (!game) return () => {}
      const full = signature(ctx, game)
      const now = viewFor(ctx, game, follower.userId)
      const id = idFor(ctx, game, follower.userId, full, now)
      follower.last = now
      const caughtUp = lastEventId !== null && lastEventId !== id
      follower.send({ id, event: 'update', data: { ...now, kind: caughtUp ? 'catch-up' : 'hello', message: caughtUp ? 'Updated while you were away.' : '' } })
      let set = followers.get(follower.gameId)
      if (!set) followers.set(follower.gameId, (set = new Set()))
      set.add(follower)
      if (!signatures.has(follower.gameId)) signatures.set(follower.gameId, changeKey(game, full))
      timer ??= setInterval(poll, POLL_MS)
      return () => {
        set.delete(follower)
        if (set.size === 0) { followers.delete(follower.gameId); signatures.delete(follower.gameId) }
        if (followers.size === 0 && timer) { clearInterval(timer); timer = null }
      }
    },
    /** Looks now instead of at the next tick (tests, and the close of the app). */
    poll,
    /**
     * Ends every stream (the app is closing): a stream is never idle, so the server would wait for
     * it, and shutting down would sit out its whole grace period (server.ts).
     */
    close() {
      if (timer) clearInterval(timer)
      timer = null
      const all = [...followers.values()].flatMap((set) => [...set])
      followers.clear()
      signatures.clear()
      for (const follower of all) follower.end()
    },
    get followerCount() { let n = 0; for (const s of followers.values()) n += s.size; return n },
  }
}

export type LiveHub = ReturnType<typeof liveHub>
