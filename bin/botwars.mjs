#!/usr/bin/env node
// The `botwars` command. The project runs its TypeScript through tsx, so there is no build step
// between a change and `npx botwars …`.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
