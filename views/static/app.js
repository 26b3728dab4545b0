// BotWars pages without JavaScript work fully; this file only makes them nicer:
// local times, arrow keys in the replay, tap/drag cards into registers, and the board-file picker.
(function () {
  'use strict'

  // <time datetime> in the reader's own time zone, in the server's one format ("Sat 12 Jan, 13:00"),
  // with the zone named ("CET"); the UTC time the server wrote stays on hover.
  var zone = (Intl.DateTimeFormat().resolvedOptions().timeZone || '').replace(/_/g, ' ')
  var local = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false, timeZoneName: 'short' })
  function localTime(d) {
    var parts = {}
    local.formatToParts(d).forEach(function (p) { parts[p.type] = p.value })
    return parts.weekday + ' ' + parts.day + ' ' + parts.month + ', ' + parts.hour + ':' + parts.minute + ' ' + parts.timeZoneName
  }
  document.querySelectorAll('time[datetime]').forEach(function (el) {
    var d = new Date(el.getAttribute('datetime'))
    if (isNaN(d)) return
    el.title = el.textContent + (zone ? ' (shown in ' + zone + ' time)' : '')
    el.textContent = localTime(d)
  })

  // Countdowns to a deadline tick every second, on the server's clock (the page says what time it
  // was there), so a computer whose clock is off still counts down to the real deadline.
  var skew = Number(document.body.getAttribute('data-now')) ? Number(document.body.getAttribute('data-now')) - Date.now() : 0
  var countdowns = Array.prototype.slice.call(document.querySelectorAll('[data-deadline]'))
  function two(n) { return n < 10 ? '0' + n : String(n) }
  function left(ms) {
    var s = Math.floor(ms / 1000)
    var days = Math.floor(s / 86400)
    var clock = two(Math.floor((s % 86400) / 3600)) + ':' + two(Math.floor((s % 3600) / 60)) + ':' + two(s % 60)
    return 'in ' + (days ? days + (days === 1 ? ' day ' : ' days ') : '') + clock
  }
  function tick() {
    var now = Date.now() + skew
    countdowns.forEach(function (el) {
      var ms = Date.parse(el.getAttribute('data-deadline')) - now
      el.textContent = ms > 0 ? left(ms) : 'the deadline has passed'
    })
  }
  if (countdowns.length) { tick(); setInterval(tick, 1000) }

  document.querySelectorAll('.js-only').forEach(function (el) { el.hidden = false })

  // GM actions that cannot be taken back ask first.
  document.querySelectorAll('form[data-confirm]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (!window.confirm(form.getAttribute('data-confirm'))) event.preventDefault()
    })
  })

  // A form is sent once per click: a second click while the first post was on its way sent GM
  // actions twice (two bot seats where one was asked). The server refuses what it can tell apart (a
  // second invitation to one address); this spares the rest. One listener on the document, so forms
  // a live update put in the page are covered too; it hears a submit after the form's own listeners,
  // so a cancelled confirmation sends nothing and marks nothing. The mark goes after a few seconds,
  // or when the page is shown again from the history.
  document.addEventListener('submit', function (event) {
    var form = event.target
    if (event.defaultPrevented || !(form instanceof HTMLFormElement) || (form.getAttribute('method') || '').toLowerCase() !== 'post') return
    if (form.hasAttribute('data-sent')) { event.preventDefault(); return }
    form.setAttribute('data-sent', '')
    setTimeout(function () { form.removeAttribute('data-sent') }, 5000)
  })
  window.addEventListener('pageshow', function () {
    document.querySelectorAll('form[data-sent]').forEach(function (form) { form.removeAttribute('data-sent') })
  })

  // A refused form: focus goes to what went wrong (the error summary), so it is read out first.
  var problem = document.querySelector('[data-focus-on-load]')
  if (problem) problem.focus()

  // The summary's links lead to the fields themselves: focus the control, not just scroll to it.
  document.querySelectorAll('#error-summary a[href^="#"]').forEach(function (link) {
    link.addEventListener('click', function (event) {
      var target = document.getElementById(link.getAttribute('href').slice(1))
      if (!target) return
      var control = /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(target.tagName) ? target : target.querySelector('input, select, textarea, button')
      if (!control) return
      event.preventDefault()
      control.focus()
      control.scrollIntoView({ block: 'center' })
    })
  })

  // Replay: ← and → follow the previous/next links (not while typing in a field).
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
    var target = event.target
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return
    var rel = event.key === 'ArrowLeft' ? 'prev' : event.key === 'ArrowRight' ? 'next' : null
    if (!rel) return
    var link = document.querySelector('a[rel="' + rel + '"]')
    if (link) { event.preventDefault(); window.location.href = link.href }
  })

  // Board file picker: read the chosen file into the textarea the form sends, and select "my own board".
  document.querySelectorAll('input[type=file][data-fills]').forEach(function (input) {
    input.addEventListener('change', function () {
      var file = input.files && input.files[0]
      if (!file) return
      file.text().then(function (text) {
        var area = document.getElementById(input.getAttribute('data-fills'))
        if (area) area.value = text
        var upload = document.querySelector('input[name=boardChoice][value=upload]')
        if (upload) upload.checked = true
      })
    })
  })

  // My turn: the selects stay the real form; cards are a faster way to fill them.
  var form = document.getElementById('program-form')
  if (!form) return
  var selects = Array.prototype.slice.call(form.querySelectorAll('select.reg-select'))
  var buttons = Array.prototype.slice.call(form.querySelectorAll('.card-button'))
  var note = document.getElementById('register-note')
  function registerOf(select) { return Number(select.id.replace('r', '')) }
  function labelOf(card) {
    var option = selects.length ? selects[0].querySelector('option[value="' + card + '"]') : null
    return option ? option.textContent : card
  }
  function say(text) { if (note) note.textContent = text }
  // Tells the planning preview (plan.js) that a register changed, and which.
  function changed(select) {
    form.dispatchEvent(new CustomEvent('program-change', { detail: { register: select ? registerOf(select) : 0 } }))
  }
  var held = {}
  function refresh() {
    selects.forEach(function (s) { held[s.id] = s.value })
    var used = {}
    selects.forEach(function (s) { if (s.value) used[s.value] = true })
    buttons.forEach(function (b) {
      var isUsed = !!used[b.getAttribute('data-card')]
      b.classList.toggle('used', isUsed)
      b.setAttribute('aria-pressed', isUsed ? 'true' : 'false')
    })
  }
  // A card already in another register swaps places with what this register held, and the page says so.
  // Arrow keys on a closed select run through its cards one by one: then the card is only chosen
  // (no swap, so no other register changes on the way) and a card used twice is named; the server
  // refuses a card used twice with a message at the register.
  function place(card, select, previous, keyed) {
    var before = previous === undefined ? select.value : previous
    var told = false
    selects.forEach(function (s) {
      if (s === select || s.value !== card) return
      told = true
      if (keyed) { say(labelOf(card) + ' in register ' + registerOf(select) + ', also in register ' + registerOf(s) + '.'); return }
      s.value = before
      say(before
        ? 'Swapped: ' + labelOf(card) + ' went to register ' + registerOf(select) + ', and ' + labelOf(before) + ' to register ' + registerOf(s) + '.'
        : labelOf(card) + ' moved from register ' + registerOf(s) + ' to register ' + registerOf(select) + '.')
    })
    select.value = card
    if (!told) say(labelOf(card) + ' in register ' + registerOf(select) + '.')
    refresh()
    changed(select)
  }
  buttons.forEach(function (b) {
    b.addEventListener('click', function () {
      var card = b.getAttribute('data-card')
      var holder = selects.filter(function (s) { return s.value === card })[0]
      if (holder) { holder.value = ''; say(labelOf(card) + ' taken out of register ' + registerOf(holder) + '.'); refresh(); changed(holder); return }
      var empty = selects.filter(function (s) { return !s.value })[0]
      if (empty) place(card, empty)
      else say('Every register is full: take a card out first.')
    })
    b.addEventListener('dragstart', function (event) {
      event.dataTransfer.setData('text/plain', b.getAttribute('data-card'))
      event.dataTransfer.effectAllowed = 'move'
    })
  })
  selects.forEach(function (s) {
    var slot = s.closest('.register')
    // The select has already changed when "change" fires: what it held before is in `held`.
    var keyed = false
    // Space and Alt+↓/↑ open the list instead (and the keys pressed in the open list never reach the
    // page): a pick from it swaps, as a mouse pick does.
    s.addEventListener('keydown', function (event) {
      keyed = !event.altKey && event.key !== ' ' && (/^(Arrow|Home|End|Page)/.test(event.key) || event.key.length === 1)
    })
    s.addEventListener('change', function () {
      if (s.value) place(s.value, s, held[s.id], keyed)
      else {
        if (held[s.id]) say(labelOf(held[s.id]) + ' taken out of register ' + registerOf(s) + '.')
        refresh(); changed(s)
      }
      keyed = false
    })
    slot.addEventListener('dragover', function (event) { event.preventDefault(); slot.classList.add('drop-target') })
    slot.addEventListener('dragleave', function () { slot.classList.remove('drop-target') })
    slot.addEventListener('drop', function (event) {
      event.preventDefault()
      slot.classList.remove('drop-target')
      var card = event.dataTransfer.getData('text/plain')
      if (card) place(card, s)
    })
  })
  refresh()
})()
