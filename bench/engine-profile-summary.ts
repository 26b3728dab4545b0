// Where a CPU profile's time goes (node --cpu-prof; engine-profile.ts; bench:server --profile): each function's own
// time and its time including what it calls, as shares of the whole, with the file it is in.
//   npx tsx bench/engine-profile-summary.ts PROFILE.cpuprofile [how many lines]
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const [file, lines = '40'] = process.argv.slice(2)
if (!file) throw new Error('usage: engine-profile-summary.ts PROFILE.cpuprofile [lines]')
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
const name = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} ${basename(node.callFrame.url)}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`

const own = new Map<string, number>()
const total = new Map<string, number>()
let all = 0
profile.samples.forEach((id, i) => {
  const time = profile.timeDeltas[i] ?? 0
  all += time
  const leaf = byId.get(id)!
  own.set(name(leaf), (own.get(name(leaf)) ?? 0) + time)
  // Each function once per sample, however deep it recurses.
  const seen = new Set<string>()
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const label = name(byId.get(at)!)
    if (!seen.has(label)) total.set(label, (total.get(label) ?? 0) + time)
    seen.add(label)
  }
})
const show = (title: string, table: Map<string, number>) => {
  console.log(title)
  for (const [label, time] of [...table].sort((a, b) => b[1] - a[1]).slice(0, Number(lines))) {
    console.log(`${((100 * time) / all).toFixed(1).padStart(5)}%  ${label}`)
  }
}
show(`own time (${(all / 1e6).toFixed(1)} s sampled)`, own)
show('including callees', total)
