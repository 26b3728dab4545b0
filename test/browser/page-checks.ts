/// <reference lib="dom" />
// What every page must have besides axe's rules (a11y-routes.test.ts): one h1 and a title of its
// own, a label on every form control, a visible focus ring on everything the keyboard reaches,
// and no sideways scrolling. Each check reads the page as it stands and returns what is wrong,
// one readable line per problem.
import type { Page } from 'playwright-core'

/** Exactly one h1, and a title that names the page before " · BotWars". */
export async function headingProblems(page: Page): Promise<string[]> {
  const { h1s, title } = await page.evaluate(() => ({
    h1s: Array.from(document.querySelectorAll('h1')).map((h) => (h.textContent ?? '').replace(/\s+/g, ' ').trim()),
    title: document.title,
  }))
  const problems: string[] = []
  if (h1s.length !== 1) problems.push(`${h1s.length} h1 headings: ${JSON.stringify(h1s)}`)
  if (h1s.some((h) => !h)) problems.push('an empty h1')
  if (!/\S.* · BotWars$/.test(title)) problems.push(`the title "${title}" does not name the page`)
  return problems
}

/**
 * The site's frame, the same on every page (WCAG 2.4.1 and 3.2.3): a skip link to the content
 * first in the tab order, and the Main navigation, so no page strands a reader without a way on.
 */
export async function siteFrameProblems(page: Page): Promise<string[]> {
  const frame = await page.evaluate(() => {
    const first = document.querySelector<HTMLElement>('body a[href], body button, body input, body select, body textarea, body summary')
    return {
      skip: first?.getAttribute('href')?.startsWith('#') && document.getElementById(first.getAttribute('href')!.slice(1))?.tagName === 'MAIN',
      nav: document.querySelector('nav[aria-label="Main"]') !== null,
    }
  })
  return [
    ...(frame.skip ? [] : ['no skip link to the main content first in the tab order']),
    ...(frame.nav ? [] : ['no Main navigation']),
  ]
}

/**
 * Every input, select and textarea a person fills in has a label they can see: a <label> for it,
 * or aria-labelledby pointing at text on the page (a fieldset's legend names a group, not a
 * control; an aria-label alone is heard, never seen).
 */
export async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const controls = Array.from(document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea'))
      .filter((el) => !(el instanceof HTMLInputElement && ['hidden', 'submit', 'button', 'reset', 'image'].includes(el.type)))
    return controls.flatMap((el) => {
      const byLabel = Array.from(el.labels ?? []).some((l) => (l.textContent ?? '').trim() !== '')
      const byIds = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)
        .some((id) => (document.getElementById(id)?.textContent ?? '').trim() !== '')
      return byLabel || byIds ? [] : [`${el.outerHTML.slice(0, 160)} has no visible label`]
    })
  })
}

/**
 * Whatever the keyboard can reach shows where the focus is. One Tab press puts Chromium in
 * keyboard mode (so :focus-visible applies as it does for a keyboard user); each reachable
 * element is then focused in turn, scrolled into view as Tab would, and must draw an outline or a
 * shadow it did not have unfocused, with no side of its outline cut off by a box that clips what
 * overflows it, and not lie under something else (a sticky bar) where it is focused (WCAG 2.4.7, 2.4.11).
 */
export async function invisibleFocus(page: Page): Promise<string[]> {
  // Where a focused element ends up is read at once: no smooth scrolling still under way.
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.keyboard.press('Tab')
  return page.evaluate(() => {
    const reachable = Array.from(document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex]'))
      .filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && !(el instanceof HTMLInputElement && el.type === 'hidden')
        && el.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
    const ring = (el: HTMLElement) => {
      const s = getComputedStyle(el)
      return { outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 ? `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}` : '', shadow: s.boxShadow }
    }
    const describe = (el: Element) => el.outerHTML.slice(0, 120)
    /** The sides of the element's outline that an ancestor clipping its overflow cuts off, and by which ancestor. */
    const clipped = (el: HTMLElement): string[] => {
      const s = getComputedStyle(el)
      const grow = Math.max(0, parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth))
      const r = el.getBoundingClientRect()
      const box = { left: r.left - grow, right: r.right + grow, top: r.top - grow, bottom: r.bottom + grow }
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        const as = getComputedStyle(a)
        if (as.overflowX === 'visible' && as.overflowY === 'visible') continue
        const ar = a.getBoundingClientRect()
        const inner = { left: ar.left + a.clientLeft, top: ar.top + a.clientTop, right: ar.left + a.clientLeft + a.clientWidth, bottom: ar.top + a.clientTop + a.clientHeight }
        const sides = [
          as.overflowX !== 'visible' && box.left < inner.left - 0.5 ? 'left' : '', as.overflowX !== 'visible' && box.right > inner.right + 0.5 ? 'right' : '',
          as.overflowY !== 'visible' && box.top < inner.top - 0.5 ? 'top' : '', as.overflowY !== 'visible' && box.bottom > inner.bottom + 0.5 ? 'bottom' : '',
        ].filter(Boolean)
        if (sides.length) return [`${sides.join(' and ')} by <${a.tagName.toLowerCase()} class="${a.className}">`]
      }
      return []
    }
    /** What covers the middle of the element, if something other than itself or what it holds. */
    const coveredBy = (el: HTMLElement): Element | null => {
      const r = el.getBoundingClientRect()
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
      return top && !el.contains(top) && !top.contains(el) && !(el instanceof HTMLInputElement && el.labels?.length && Array.from(el.labels).some((l) => l.contains(top))) ? top : null
    }
    // Unfocused first, all at once; then focus moves from one to the next as Tab moves it.
    (document.activeElement as HTMLElement | null)?.blur()
    const unfocused = reachable.map(ring)
    const problems: string[] = []
    reachable.forEach((el, i) => {
      el.focus()
      if (document.activeElement !== el) return problems.push(`${describe(el)} does not take the focus`)
      const focused = ring(el)
      const shows = (focused.outline !== '' && focused.outline !== unfocused[i]!.outline) || focused.shadow !== unfocused[i]!.shadow
      if (!el.matches(':focus-visible') || !shows) return problems.push(`${describe(el)} shows no focus (outline: ${focused.outline || 'none'})`)
      for (const cut of focused.outline ? clipped(el) : []) problems.push(`${describe(el)} has its focus outline cut off on the ${cut}`)
      const cover = coveredBy(el)
      if (cover) problems.push(`${describe(el)} is focused under ${describe(cover)}`)
    })
    return problems
  })
}

/**
 * The page is no wider than the screen (a phone never scrolls sideways; wide tables scroll in their
 * own box). On a phone the layout grows to what sticks out, window.innerWidth with it, so both are
 * held to the screen's width as set.
 */
export async function sidewaysScroll(page: Page): Promise<string[]> {
  const screen = page.viewportSize()!.width
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth])
  return Math.max(scrollWidth!, innerWidth!) > screen ? [`the page is ${Math.max(scrollWidth!, innerWidth!)} px wide on a ${screen} px screen`] : []
}
