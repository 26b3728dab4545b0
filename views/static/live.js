// Live pages: follows the game's event stream (server-sent events, src/server/live) and keeps the
// page current — who has submitted (never what), the turn closing, a turn published, new messages — and puts a
// badge in the tab's title ("(1) BotWars") when something waits for you. Without JavaScript the
// page is simply reloaded by hand (or by its <noscript> refresh); nothing here is needed to play.
(function () {
  'use strict'
  var url = document.body.getAttribute('data-live')
  if (!url || !window.EventSource) return
  var baseTitle = document.title.replace(/^(Error: )?\(\d+\) /, '$1')
  // A refused form's title keeps "Error:" first, the first words a screen reader says; the badge follows.
  var refused = /^Error: /.test(baseTitle) ? 'Error: ' : ''
  var note = document.getElementById('live-note')
  var messagesOnly = document.body.hasAttribute('data-live-messages-only')
  // A form being filled in is never reloaded under the person's hands: it gets a note instead.
  function editing() {
    if (document.querySelector('form.program-form')) return true
    return Array.prototype.some.call(document.querySelectorAll('input, textarea, select'), function (field) {
      if (field.type === 'hidden') return false
      if (field.type === 'checkbox' || field.type === 'radio') return field.checked !== field.defaultChecked
      if (field.tagName === 'SELECT') return selectChanged(field)
      return field.value !== field.defaultValue
    })
  }
  // A single select whose options carry no `selected` attribute shows its first option by default
  // (the messages form's "To" list): that is not an edit, or the page would never follow the game.
  function selectChanged(select) {
    var options = Array.prototype.slice.call(select.options)
    var marked = options.some(function (o) { return o.defaultSelected })
    return options.some(function (o, i) {
      var byDefault = marked ? o.defaultSelected : (!select.multiple && i === 0)
      return o.selected !== byDefault
    })
  }
  // Once the page is being left (a form sent, a link followed), a reload would cancel that navigation.
  var leaving = false
  window.addEventListener('beforeunload', function () { leaving = true })
  document.addEventListener('submit', function () { leaving = true })
  var source = new EventSource(url)
  // The game as this page shows it (data-live-at, live/state.ts liveAt): the stream's first message
  // says the game now; if it moved on while the page loaded (a slow load, a tab restored), that is
  // a catch-up. The page is reloaded for it once; should the new page still differ, it gets a note.
  var renderedAt = document.body.getAttribute('data-live-at')
  function atOf(s) { return [s.gameStatus, s.turn, s.turnStatus, s.published].map(String).join('.') }
  function firstReloadFor(at) {
    try {
      var name = 'botwars-live-reload ' + window.location.pathname
      if (window.sessionStorage.getItem(name) === at) return false
      window.sessionStorage.setItem(name, at)
    } catch (e) {}
    return true
  }

  function say(text, link) {
    if (!note || !text) return
    note.textContent = text + ' '
    if (link) {
      var a = document.createElement('a')
      a.href = window.location.href
      a.textContent = 'Show it'
      note.appendChild(a)
    }
    note.hidden = false
  }

  function markSubmitted(list) {
    var ids = {}
    list.forEach(function (s) { ids[s.player] = true })
    document.querySelectorAll('[data-player] > .submitted, li[data-player].submission').forEach(function (cell) {
      var holder = cell.hasAttribute('data-player') ? cell : cell.parentElement
      var yes = !!ids[holder.getAttribute('data-player')]
      if (cell.tagName === 'TD') cell.innerHTML = yes ? '<span class="yes">✔ in</span>' : '<span class="no">not yet</span>'
      else cell.querySelector('.state').textContent = yes ? 'program in' : 'no program yet'
    })
  }

  // New messages (issue 12): the event says only that the viewer's threads changed (a mark); the
  // threads are fetched again with the viewer's own session and swapped in, all but the message
  // form, so a message being written stays as it is.
  var fetchingMessages = false
  var wantedMark = null
  function refreshMessages(mark) {
    wantedMark = mark
    if (fetchingMessages || !window.fetch || !window.DOMParser) return
    fetchingMessages = true
    fetch(window.location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (response) { return response.ok ? response.text() : null })
      .then(function (html) {
        var fresh = html && new DOMParser().parseFromString(html, 'text/html').getElementById('messages')
        var here = document.getElementById('messages')
        if (!fresh || !here) return
        var form = here.querySelector('form.message-form')
        Array.prototype.slice.call(here.childNodes).forEach(function (node) { if (node !== form) here.removeChild(node) })
        Array.prototype.slice.call(fresh.childNodes).forEach(function (node) {
          if (node.nodeType === 1 && node.matches('form.message-form')) return
          here.insertBefore(document.importNode(node, true), form)
        })
        here.setAttribute('data-mark', fresh.getAttribute('data-mark') || '')
      })
      .catch(function () {})
      .then(function () {
        fetchingMessages = false
        var here = document.getElementById('messages')
        // A message that came while this one was fetched: once more (the page said another mark).
        if (here && wantedMark && here.getAttribute('data-mark') !== wantedMark && here.getAttribute('data-mark') !== mark) refreshMessages(wantedMark)
      })
  }

  source.addEventListener('update', function (event) {
    var s
    try { s = JSON.parse(event.data) } catch (e) { return }
    document.title = refused + (s.needsYou ? '(' + s.needsYou + ') ' : '') + baseTitle.slice(refused.length)
    document.body.setAttribute('data-live-state', s.kind)
    // Only an open turn takes programs: once closed the list is empty, and the rows show "–", not "not yet".
    if (s.submitted && s.turnStatus === 'open') markSubmitted(s.submitted)
    var waiting = document.querySelector('p.waiting')
    if (waiting && s.waiting) { waiting.textContent = s.waiting; waiting.classList.toggle('urgent', !!s.needsYou) }
    var threads = document.getElementById('messages')
    if (s.messages && threads && threads.hasAttribute('data-mark') && threads.getAttribute('data-mark') !== s.messages) refreshMessages(s.messages)
    if (s.kind === 'hello') {
      if (!renderedAt || atOf(s) === renderedAt) return
      s.message = 'The game moved on while this page loaded.'
    }
    var big = s.kind !== 'submitted' && s.kind !== 'changed' && s.kind !== 'deadline' && s.kind !== 'message'
    if (leaving) return
    // A report being read (data-live-messages-only) is never reloaded: it gets the note and a link.
    if (big && !editing() && !messagesOnly && (s.kind !== 'hello' || firstReloadFor(atOf(s)))) { window.location.reload(); return }
    say(s.message, big)
  })
})()
