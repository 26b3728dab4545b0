// Catching robots' glides in the animated replay (views/static/replay.js) without racing a clock.
// A test that samples the page frame by frame for a robot half-way through a 420 ms glide fails by
// chance on a loaded machine, which can skip frames for longer than that. A MutationObserver's
// callback instead runs in the same turn of the event loop as the style changes it reports, before
// the browser can paint a frame: there every robot sent in that moment already has its glide (its
// CSS transition), and a robot sent later (after another's glide) has none yet.
import type { Page } from 'playwright-core'

/** A robot's glide as caught in the page: whether it was sent in the moment, and its computed place at the glide's start, middle and end. */
export type Glide = { player: string; moved: boolean; from?: number[]; mid?: number[]; to?: number[] }

/**
 * Call before pressing Play. Watches #watch for the first moment, in stage `stage` and (if given)
 * beat `beat`, that one of `players`' robots is sent on its way, and records every one of them
 * then: each glide is paused, seeked to its start, middle and end, and let run on as it was. The
 * function returned waits for that record.
 */
export async function catchGlides(page: Page, at: { players: string[]; stage: number; beat?: string }): Promise<() => Promise<Glide[]>> {
  await page.evaluate(({ players, stage, beat }) => {
    const store = window as unknown as { caughtGlides?: Glide[] }
    const watch = document.getElementById('watch')!
    const robotOf = (player: string) => document.querySelector(`#watch g.robot[data-player="${player}"]`)!
    const place = (g: Element) => { const m = new DOMMatrix(getComputedStyle(g).transform); return [m.e, m.f] }
    new MutationObserver((records, observer) => {
      if (watch.getAttribute('data-stage') !== String(stage) || (beat !== undefined && watch.getAttribute('data-beat') !== beat)) return
      const styled = new Set(records.filter((r) => r.attributeName === 'style').map((r) => r.target))
      if (!players.some((p) => styled.has(robotOf(p)))) return // none of them sent yet
      observer.disconnect()
      store.caughtGlides = players.map((player) => {
        const g = robotOf(player)
        const glide = g.getAnimations().find((a) => a instanceof CSSTransition && a.transitionProperty === 'transform')
        if (!styled.has(g) || !glide) return { player, moved: false }
        const was = glide.currentTime ?? 0
        const length = Number(glide.effect!.getTiming().duration)
        glide.pause()
        const [from, mid, to] = [0, length / 2, length].map((t) => { glide.currentTime = t; return place(g) })
        glide.currentTime = was
        glide.play()
        return { player, moved: true, from, mid, to }
      })
    }).observe(watch, { subtree: true, attributes: true, attributeFilter: ['style', 'data-beat'] })
  }, at)
  return async () => (await page.waitForFunction(() => (window as unknown as { caughtGlides?: Glide[] }).caughtGlides, undefined, { timeout: 20_000 })).jsonValue() as Promise<Glide[]>
}

/** The distance between two places on the board picture. */
export const apart = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!)
