/// <reference lib="dom" />
// The entry of the browser bundle (/static/plan.js): wires the path preview into the "my turn"
// form. The form stays the real thing: this only reads its selects and redraws the picture.
// app.js fires "program-change" on the form whenever a register changes (tap, drag or select).
import { compileBoard, parseBoard } from '../engine/board.js'
import { parseCard } from '../engine/deck.js'
import { formatSquare } from '../engine/geometry.js'
import type { Board, Card, Direction } from '../engine/types.js'
import { REGISTER_COUNT } from '../engine/types.js'
import { cardLabel } from '../render/cards.js'
import { FACING, predict, previewSvg, type PreviewData, type StagePrediction } from './preview.js'

function start(): void {
  const dataNode = document.getElementById('preview-data')
  const form = document.getElementById('program-form') as HTMLFormElement | null
  const figure = document.querySelector<HTMLElement>('.plan-board')
  const panel = document.getElementById('plan-preview')
  if (!dataNode || !form || !figure || !panel) return
  const data = JSON.parse(dataNode.textContent ?? '{}') as PreviewData
  // The game's board as the server stored it (the rules it was made under, see parseBoard).
  const parsed = parseBoard(data.board, [], { stored: true })
  if (!parsed.ok) return
  const board: Board = compileBoard(parsed.value)
  const picker = panel.querySelector<HTMLElement>('.plan-stages')!
  const steps = panel.querySelector<HTMLOListElement>('.plan-steps')!
  const summary = panel.querySelector<HTMLElement>('.plan-summary')!
  panel.hidden = false

  let shown = 0
  let chosenByPlayer = false

  const chosen = (): (Card | null)[] => {
    const out: (Card | null)[] = []
    for (let k = 1; k <= REGISTER_COUNT; k++) {
      if (data.me.fused[k] !== undefined) continue
      const select = form.querySelector<HTMLSelectElement>(`#r${k}`)
      out.push(select && select.value ? parseCard(select.value) : null)
    }
    return out
  }
  /** The number of the last register with a card the player chose (0 = none yet). */
  const lastFilled = (): number => {
    let last = 0
    for (let k = 1; k <= REGISTER_COUNT; k++) if (form.querySelector<HTMLSelectElement>(`#r${k}`)?.value) last = k
    return last
  }
  const facing = (): Direction | undefined => {
    const value = form.querySelector<HTMLSelectElement>('#facing')?.value
    return value === 'N' || value === 'E' || value === 'S' || value === 'W' ? value : undefined
  }

  const describe = (s: StagePrediction): string => {
    const head = s.card ? cardLabel(s.card) : 'no card yet (only the board acts)'
    const end = s.at ? `ends on ${formatSquare(s.at)} facing ${FACING[s.facing]}` : 'robot destroyed'
    return `${head}${s.phrases.length ? `: ${s.phrases.join(', ')}` : ''}; ${end}`
  }

  const draw = (): void => {
    let prediction: ReturnType<typeof predict>
    try {
      prediction = predict(board, data, chosen(), facing())
    } catch {
      summary.textContent = 'The preview could not work this program out; the form still works as usual.'
      return
    }
    const last = prediction.stages.length
    if (shown > last) shown = last
    figure.innerHTML = previewSvg(board, data, prediction, shown)
    steps.innerHTML = ''
    for (const s of prediction.stages) {
      const li = document.createElement('li')
      li.dataset.stage = String(s.stage)
      li.dataset.square = s.at ? formatSquare(s.at) : 'destroyed'
      li.dataset.facing = s.facing
      li.dataset.card = s.card ? 'yes' : 'no'
      if (s.stage === shown) li.className = 'current'
      li.textContent = `Stage ${s.stage}: ${describe(s)}`
      steps.appendChild(li)
    }
    picker.querySelectorAll<HTMLButtonElement>('button').forEach((b) => {
      const stage = Number(b.dataset.stage)
      b.setAttribute('aria-pressed', stage === shown ? 'true' : 'false')
      b.disabled = stage > last
    })
    const s = prediction.stages[shown - 1]
    summary.textContent = s ? `After stage ${s.stage}: ${describe(s)}.` : 'Now: where your robot stands before the turn.'
  }

  picker.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-stage]')
    if (!button) return
    shown = Number(button.dataset.stage)
    chosenByPlayer = true
    draw()
  })
  // Follow the player's hand: after a change, show the stage of the last register with a card.
  form.addEventListener('program-change', (event) => {
    const register = (event as CustomEvent<{ register?: number }>).detail?.register
    if (register) shown = register
    else if (!chosenByPlayer) shown = lastFilled()
    draw()
  })
  form.querySelector('#facing')?.addEventListener('change', draw)
  shown = lastFilled()
  draw()
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
else start()
