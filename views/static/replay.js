// The turn, animated (issue 13): on the turn report, robots glide along their paths stage by
// stage — together where the rules move them together (conveyors, pushers, gears; a pushed robot
// with its pusher) — pushed robots jolt, destroyed robots fade, laser shots flash. Each stage starts from the
// server's own picture (before-k.svg), so mechanisms are exactly as the engine left them; the
// moves in between come from the stage's events, embedded in the page (#anim-data). Play/pause,
// previous/next stage, ← → and space while the player has focus. With prefers-reduced-motion
// nothing glides: the stages follow each other as still pictures. Without JavaScript the
// step-through pages (/replay/1 …) do the same.
(function () {
  'use strict'
  var root = document.getElementById('watch')
  var dataNode = document.getElementById('anim-data')
  if (!root || !dataNode || !window.fetch) return
  var data = JSON.parse(dataNode.textContent)
  var board = root.querySelector('.anim-board')
  var label = root.querySelector('.anim-stage')
  var playButton = root.querySelector('[data-anim=play]')
  var reduced = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  var STEP = reduced ? 0 : 420
  var stage = 0
  var playing = false
  var run = 0 // bumps whenever the stage changes, so an old animation stops
  var asked = 0 // bumps with every stage picture asked for, so only the latest one lands
  root.hidden = false

  var ANGLE = { N: 0, E: 90, S: 180, W: 270 }
  function wait(ms) { return new Promise(function (r) { setTimeout(r, ms) }) }
  function centre(svg, sq) {
    var rows = Number(svg.getAttribute('data-rows'))
    var top = (svg.querySelector('text.title') ? 70 : 0) + 60
    return { x: 70 + (sq.col - 1) * 100 + 50, y: top + (rows - sq.row) * 100 + 50 }
  }
  function robot(svg, player) {
    var found = null
    svg.querySelectorAll('g.robot').forEach(function (g) { if (g.getAttribute('data-player') === player) found = g })
    return found
  }
  function place(g, x, y, kind) {
    var scale = /scale\(([\d.]+)\)/.exec(g.getAttribute('transform') || '')
    var s = scale ? scale[1] : '1'
    if (!g.style.transform) {
      var at = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(g.getAttribute('transform') || '')
      if (at) { g.style.transition = 'none'; g.style.transform = 'translate(' + at[1] + 'px, ' + at[2] + 'px) scale(' + s + ')'; void g.getBoundingClientRect() }
    }
    g.style.transition = STEP ? 'transform ' + (kind === 'push' ? STEP * 0.6 : STEP) + 'ms ' + (kind === 'push' ? 'cubic-bezier(.3,1.7,.5,1)' : 'ease-in-out') : 'none'
    g.style.transform = 'translate(' + x + 'px, ' + y + 'px) scale(' + s + ')'
    g.classList.toggle('pushed', kind === 'push')
  }
  function turn(g, facing) {
    var inner = g.querySelector('g[transform^="rotate"]')
    if (!inner) return
    var now = Number(inner.getAttribute('data-angle') || (/rotate\(([-\d.]+)/.exec(inner.getAttribute('transform')) || [0, 0])[1])
    var want = ANGLE[facing]
    var delta = ((want - now) % 360 + 540) % 360 - 180
    inner.setAttribute('data-angle', String(now + delta))
    inner.style.transition = STEP ? 'transform ' + STEP + 'ms ease-in-out' : 'none'
    inner.style.transform = 'rotate(' + (now + delta) + 'deg)'
  }
  function flash(svg, squares, colour) {
    if (!squares || !squares.length) return
    var a = centre(svg, squares[0])
    var b = centre(svg, squares[squares.length - 1])
    var line = document.createElementNS('http://www.w3.org/2000/svg', 'line')
    line.setAttribute('class', 'flash')
    line.setAttribute('x1', a.x); line.setAttribute('y1', a.y); line.setAttribute('x2', b.x); line.setAttribute('y2', b.y)
    line.setAttribute('stroke', colour); line.setAttribute('stroke-width', '14'); line.setAttribute('stroke-linecap', 'round'); line.setAttribute('opacity', '0.85')
    svg.appendChild(line)
    setTimeout(function () { line.remove() }, reduced ? 900 : 450)
  }

  function show(k) {
    run++
    stage = k
    var mine = run
    var picture = ++asked
    label.textContent = 'Stage ' + k + ' of ' + data.stages.length
    root.setAttribute('data-stage', String(k))
    return fetch(data.pictureBase + '/before-' + k + '.svg', { credentials: 'same-origin' })
      .then(function (r) { return r.text() })
      // Pausing (which bumps run) while it loads still shows the stage its label names.
      .then(function (svg) { if (picture === asked) board.innerHTML = svg; return mine })
  }

  // One event of one robot (or a shot); resolves when it has played.
  function playEvent(svg, e) {
    var g = e.player ? robot(svg, e.player) : null
    if ((e.kind === 'moved' || e.kind === 'teleported') && g) { var c = centre(svg, e.to); place(g, c.x, c.y, e.cause); return wait(STEP) }
    if (e.kind === 'turned' && g) { turn(g, e.facing); return wait(STEP) }
    if (e.kind === 'destroyed' && g) { g.style.transition = STEP ? 'opacity ' + STEP + 'ms' : 'none'; g.style.opacity = '0.15'; return wait(STEP) }
    if (e.kind === 'board-laser' || e.kind === 'robot-laser') { flash(svg, e.squares, e.kind === 'board-laser' ? '#e3261b' : '#ff8a00'); return wait(reduced ? 0 : 300) }
    return Promise.resolve()
  }

  // The stage's events in beats (pages/turns.ts beatOf): one card step at a time in priority
  // order, a pushed robot with its pusher; every robot at once in a conveyor step, the pushers,
  // the gears; all lasers of a phase together. Within a beat each robot's own events keep their order.
  function beats(events) {
    var out = []
    events.forEach(function (e) {
      var last = out[out.length - 1]
      if (last && last.key === e.beat) last.events.push(e)
      else out.push({ key: e.beat, events: [e] })
    })
    return out
  }

  // A beat's shots flash together first (a robot they destroy fades after), then every robot's
  // own events play side by side.
  function playBeat(svg, beat) {
    var shots = []
    var lanes = {}
    var order = []
    beat.events.forEach(function (e) {
      if (e.kind === 'board-laser' || e.kind === 'robot-laser') { shots.push(e); return }
      if (!lanes[e.player]) { lanes[e.player] = []; order.push(e.player) }
      lanes[e.player].push(e)
    })
    root.setAttribute('data-beat', beat.key)
    return Promise.all(shots.map(function (e) { return playEvent(svg, e) })).then(function () {
      return Promise.all(order.map(function (player) {
        return lanes[player].reduce(function (chain, e) { return chain.then(function () { return playEvent(svg, e) }) }, Promise.resolve())
      }))
    })
  }

  function animate(mine) {
    var svg = board.querySelector('svg')
    var chain = Promise.resolve()
    beats(data.stages[stage - 1].events).forEach(function (beat) {
      chain = chain.then(function () { if (mine === run && svg) return playBeat(svg, beat) })
    })
    return chain.then(function () { root.setAttribute('data-played', String(stage)) })
  }

  function play() {
    if (!playing) return
    var mine = run
    animate(mine).then(function () { return wait(reduced ? 1500 : 700) }).then(function () {
      if (!playing || mine !== run) return
      if (stage < data.stages.length) show(stage + 1).then(function (m) { if (m === run) play() })
      else { playing = false; playButton.textContent = '▶ Play again'; playButton.setAttribute('aria-pressed', 'false') }
    })
  }

  function toggle() {
    playing = !playing
    playButton.setAttribute('aria-pressed', playing ? 'true' : 'false')
    playButton.textContent = playing ? '❚❚ Pause' : '▶ Play'
    if (playing) {
      // Only if no later Play, Pause or step came while the picture loaded (as play() itself checks):
      // Play, Pause, Play in quick succession must start one run, not two.
      var from = stage >= data.stages.length && root.getAttribute('data-played') === String(stage) ? 1 : stage || 1
      show(from).then(function (m) { if (m === run) play() })
    } else run++
  }
  function step(delta) {
    var k = Math.min(data.stages.length, Math.max(1, stage + delta))
    playing = false
    playButton.textContent = '▶ Play'
    playButton.setAttribute('aria-pressed', 'false')
    show(k)
  }
  playButton.addEventListener('click', toggle)
  root.querySelector('[data-anim=prev]').addEventListener('click', function () { step(-1) })
  root.querySelector('[data-anim=next]').addEventListener('click', function () { step(1) })
  root.addEventListener('keydown', function (event) {
    var key = event.key
    if (key !== 'ArrowLeft' && key !== 'ArrowRight' && key !== ' ') return
    event.preventDefault()
    event.stopPropagation() // the page's own ← → go to the previous/next turn
    if (key === ' ') toggle()
    else step(key === 'ArrowLeft' ? -1 : 1)
  })
  show(1)
})()
