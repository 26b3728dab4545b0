#!/usr/bin/env node
// A BotWars webhook bot (issue 15), in plain Node with no dependencies. It listens for the
// server's "hand dealt" POST, checks the HMAC signature, picks a program and submits it through
// the ordinary API with the game's API token. See docs/bots.md for the protocol.
//
//   BOTWARS_URL=http://127.0.0.1:3000 BOTWARS_TOKEN=<game API token> BOTWARS_SECRET=<webhook secret> \
//   PORT=8787 node examples/webhook-bot.mjs
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'

const { BOTWARS_URL = 'http://127.0.0.1:3000', BOTWARS_TOKEN, BOTWARS_SECRET, PORT = '8787' } = process.env
const DIRS = ['N', 'E', 'S', 'W']
const STEP = { N: [1, 0], E: [0, 1], S: [-1, 0], W: [0, -1] }

/** The header is t=<ms>,sha256=<hex HMAC-SHA256 of "<t>.<body>">, over the body's bytes as received. */
function signedBy(secret, header, body) {
  const match = /^t=(\d+),sha256=([0-9a-f]{64})$/.exec(header ?? '')
  if (!match) return false
  const expected = createHmac('sha256', secret).update(`${match[1]}.`).update(body).digest()
  return timingSafeEqual(expected, Buffer.from(match[2], 'hex'))
}

/** Where a card leaves a robot on an empty board: [row, col, facing]. */
function play([row, col, facing], kind) {
  const turn = { LF90: 3, RT90: 1, UTRN: 2 }[kind]
  if (turn) return [row, col, DIRS[(DIRS.indexOf(facing) + turn) % 4]]
  const steps = { FWD1: 1, FWD2: 2, FWD3: 3, RVS1: -1, RVS2: -2, RVS3: -3 }[kind] ?? 0
  return [row + STEP[facing][0] * steps, col + STEP[facing][1] * steps, facing]
}

/** Each register in turn takes the card that brings the robot nearest the next flag (walls and all else ignored). */
function chooseProgram(game, me) {
  const flag = game.board.elements.find((e) => e.type === 'flag' && e.number === me.robot.flags + 1)
  const [fr, fc] = flag.at.slice(1).split('c').map(Number)
  let pose = [me.robot.at.row, me.robot.at.col, me.robot.facing]
  const hand = [...me.hand]
  const program = []
  for (let open = 5 - Object.keys(me.robot.fused).length; open > 0 && hand.length > 0; open--) {
    const score = (card) => { const [row, col] = play(pose, card.split(':')[0]); return Math.abs(row - fr) + Math.abs(col - fc) }
    const best = hand.reduce((a, b) => (score(b) < score(a) ? b : a))
    pose = play(pose, best.split(':')[0])
    program.push(hand.splice(hand.indexOf(best), 1)[0])
  }
  return program
}

const server = createServer((request, response) => {
  // The chunks are joined before decoding: one decoded alone would break a character split between two.
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', async () => {
    const body = Buffer.concat(chunks)
    if (!signedBy(BOTWARS_SECRET, request.headers['x-botwars-signature'], body)) return response.writeHead(401).end()
    response.writeHead(204).end() // answer at once; the program goes in through the API
    const { gameId, turn, game } = JSON.parse(body.toString('utf8'))
    const me = game.currentTurn?.me
    if (!me?.canSubmit || me.robot.rebooting || me.robot.at === null) return
    const res = await fetch(`${BOTWARS_URL}/api/v1/games/${gameId}/turns/${turn}/submission`, {
      method: 'POST', headers: { authorization: `Bearer ${BOTWARS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cards: chooseProgram(game, me) }),
    })
    console.log(`turn ${turn}: ${res.status}`)
  })
})
server.listen(Number(PORT), '127.0.0.1', () => console.log(`listening on ${server.address().port}`))
