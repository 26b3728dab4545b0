// `npm run demo`: a demo game in ./data (or DATABASE_PATH) a newcomer can open at once: a GM and
// two seeded players on Training Floor, three turns played and published, the fourth open. Run it
// again and it makes no second game: it queues fresh sign-in links and prints them again.
// Made through the server's own services; mail goes where the server's goes (./data/outbox/*.eml
// unless SMTP_URL is set).
import { join } from 'node:path'
import { buildApp } from '../src/server/app.js'
import { ConfigError, loadConfig } from '../src/server/config.js'
import { requestSignIn } from '../src/server/services/auth.js'
import { playTurn, seatedGame, start, user } from '../src/testkit/games.js'

const DEMO_NAME = 'Demo game'
const GM = { email: 'gm@demo.botwars.test', name: 'Gemma (GM)' }
const PLAYERS = [{ email: 'ann@demo.botwars.test', name: 'Ann' }, { email: 'bob@demo.botwars.test', name: 'Bob' }]
const TURNS = 3

let config
try {
  config = loadConfig()
} catch (err) {
  if (err instanceof ConfigError) { console.error(err.message); process.exit(1) }
  throw err
}
const app = await buildApp({ config, logger: false })
const ctx = app.services
try {
  const gm = user(ctx, GM.email, GM.name)
  let game = ctx.games.forUser(gm.id).find((g) => g.name === DEMO_NAME && g.gm_user_id === gm.id)
  const made = !game
  if (!game) {
    const players = PLAYERS.map((p) => user(ctx, p.email, p.name))
    game = seatedGame(ctx, gm, players, { name: DEMO_NAME, board: 'training-floor', reviewWindowHours: 0, closeEarly: false, turnLengthHours: 7 * 24 })
    start(ctx, game, gm)
    for (let i = 0; i < TURNS; i++) playTurn(ctx, game.id)
    game = ctx.games.byId(game.id)!
  }
  const published = ctx.turns.published(game.id).map((t) => t.number)
  const current = ctx.turns.current(game.id)
  const before = ctx.outbox.all().at(-1)?.id ?? 0
  for (const who of [GM, ...PLAYERS]) requestSignIn(ctx, who.email)
  const links = new Map(ctx.outbox.all().filter((m) => m.id > before && m.kind === 'sign-in').map((m) => [m.recipient, /https?:\/\/\S+/.exec(m.body)![0]]))
  let sent = 0
  for (let n = await app.mailer.deliver(); n > 0; n = await app.mailer.deliver()) sent += n

  const url = (path: string) => `${config.baseUrl}${path}`
  const lastReport = published.at(-1)
  console.log(made ? `Made "${DEMO_NAME}" in ${config.databasePath}: ${TURNS} turns published.` : `"${DEMO_NAME}" exists already in ${config.databasePath}; no second one made. Fresh sign-in links below.`)
  console.log(`
1. Start the server:            ${startCommand()}
2. Sign in (each link works once, for 30 minutes; use a private window for the second person):
   GM  ${GM.email.padEnd(24)} ${links.get(GM.email)}
   Ann ${PLAYERS[0]!.email.padEnd(24)} ${links.get(PLAYERS[0]!.email)}
   Bob ${PLAYERS[1]!.email.padEnd(24)} ${links.get(PLAYERS[1]!.email)}
3. Open:
${[
    ['the game', `/games/${game.id}`],
    [`the turn ${lastReport} report`, `/games/${game.id}/turns/${lastReport}`],
    [`turn ${current?.number} (open): a program`, `/games/${game.id}/turns/${current?.number}/submit`],
    ['the GM console', `/games/${game.id}/gm`],
    ['spectators (no sign-in)', `/watch/${game.public_token}`],
  ].map(([label, path]) => `   ${label!.padEnd(29)}${url(path!)}`).join('\n')}
${config.smtpUrl ? `Mail went out through ${config.smtpUrl.replace(/\/\/[^@]*@/, '//')} (${sent} messages).` : `Every mail is a file in ${join(config.dataDir, 'outbox')} (${sent} written now); new sign-in links: npm run demo again, or the sign-in page.`}`)
} finally {
  await app.close()
}

/** `npm start` with the variables that chose this database and its links, so the server opens the demo's database. */
function startCommand(): string {
  const quoted = (value: string) => /^[\w./:@%+-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`
  return [...['DATABASE_PATH', 'HOST', 'PORT', 'BASE_URL'].filter((name) => process.env[name]).map((name) => `${name}=${quoted(process.env[name]!)}`), 'npm start'].join(' ')
}
