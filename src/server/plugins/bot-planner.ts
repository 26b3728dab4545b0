// The bot planner: bot seats' programs computed in a worker thread (bot-worker.cjs), so that a
// practice turn against seven strong bots (0.2–1.1 s of planning) never holds up the requests of
// every other player. Only the computing moves: what is planned and when a plan is stored is
// decided by services/bot-plans.ts, in the app's own transactions.
//
// Failures: a bot that throws fails that plan alone (the worker goes on). A worker that dies
// (crash, out of memory, terminated) is logged and replaced by a new one, which is given the plans
// the dead one had in hand; a plan whose worker died twice fails. A failed plan never holds a turn
// up: the turn closes by the rules (services/bot-seats.ts playMissingBots).
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { TurnOrders } from '../../engine/types.js'
import type { BotJob } from './bot-plan-jobs.js'

/** How long stop() waits for plans in progress before the worker is terminated and they are abandoned. */
const STOP_GRACE_MS = 2000
/** Workers one plan may see die before it fails. */
const MAX_TRIES = 2

export interface BotPlanner {
  /** The orders of each job, in order; rejects if a bot throws, the worker died twice, or the planner stopped. */
  plan(jobs: readonly BotJob[]): Promise<TurnOrders[]>
  /** Waits for the plans in progress (at most a grace period), then ends the worker; later plans are refused. */
  stop(): Promise<void>
  /** Plans sent to the worker and not answered yet. */
  readonly inHand: number
  /** Whether stop() was called: plans are refused from then on. */
  readonly stopped: boolean
  /** Plans the worker has answered, and workers started again after one died: for tests and the log. */
  readonly stats: { planned: number; restarts: number }
  /** Test-only: ends the worker thread now, as if it had died. */
  killWorker(): Promise<void>
}

interface Pending {
  jobs: readonly BotJob[]
  tries: number
  resolve: (orders: TurnOrders[]) => void
  reject: (error: Error) => void
}

const require = createRequire(import.meta.url)

export function startBotPlanner(warn: (message: string) => void): BotPlanner {
  const workerData = {
    tsxApi: require.resolve('tsx/cjs/api'),
    planModule: fileURLToPath(new URL('./bot-plan-jobs.ts', import.meta.url)),
  }
  const pending = new Map<number, Pending>()
  const stats = { planned: 0, restarts: 0 }
  let nextId = 1
  let worker: Worker | null = null
  let stopping = false

  /** The worker, started on the first plan: an app that never plans for a bot starts no thread. */
  function running(): Worker {
    if (worker) return worker
    const started = new Worker(new URL('./bot-worker.cjs', import.meta.url), { workerData })
    // Never keeps a process alive by itself; stop() ends it in an orderly way.
    started.unref()
    started.on('message', (message: { id: number; orders?: TurnOrders[]; error?: string }) => {
      const job = pending.get(message.id)
      if (!job) return
      pending.delete(message.id)
      stats.planned++
      if (message.error !== undefined) job.reject(new Error(`a bot failed to plan: ${message.error}`))
      else job.resolve(message.orders!)
    })
    started.on('error', (error) => died(started, error.message))
    started.on('exit', (code) => died(started, `exit code ${code}`))
    worker = started
    return started
  }

  /** A worker gone while plans were in its hands: they go to a new worker, or fail after MAX_TRIES. */
  function died(dead: Worker, why: string): void {
    if (worker !== dead) return
    worker = null
    if (stopping) return
    if (pending.size === 0) return
    warn(`the bot planner's worker stopped (${why}) with ${pending.size} plan(s) in hand: a new worker plans them`)
    stats.restarts++
    for (const [id, job] of pending) {
      if (++job.tries >= MAX_TRIES) {
        pending.delete(id)
        job.reject(new Error(`the bot planner's worker stopped (${why}) twice while planning`))
      } else {
        running().postMessage({ id, jobs: job.jobs })
      }
    }
  }

  return {
    stats,
    get stopped() { return stopping },
    get inHand() { return pending.size },
    plan(jobs) {
      if (stopping) return Promise.reject(new Error('the server is stopping: no more bot plans'))
      if (jobs.length === 0) return Promise.resolve([])
      return new Promise<TurnOrders[]>((resolve, reject) => {
        const id = nextId++
        pending.set(id, { jobs, tries: 0, resolve, reject })
        running().postMessage({ id, jobs })
      })
    },
    async stop() {
      if (stopping) return
      stopping = true
      const inHand = [...pending.values()].map((job) => new Promise<void>((done) => {
        const { resolve, reject } = job
        job.resolve = (orders) => { resolve(orders); done() }
        job.reject = (error) => { reject(error); done() }
      }))
      let grace: NodeJS.Timeout | undefined
      await Promise.race([Promise.all(inHand), new Promise<void>((done) => { grace = setTimeout(done, STOP_GRACE_MS) })])
      clearTimeout(grace)
      for (const job of pending.values()) job.reject(new Error('the server stopped before this bot plan was ready'))
      pending.clear()
      await worker?.terminate()
      worker = null
    },
    async killWorker() {
      await worker?.terminate()
    },
  }
}
