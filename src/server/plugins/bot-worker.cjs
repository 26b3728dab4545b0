// The bot planner's worker thread (plugins/bot-planner.ts): plans bot seats' programs off the event
// loop. Plain CommonJS, like checkpoint-worker.cjs, so it starts the same way under tsx, vitest
// and node alone; it registers tsx itself to load the TypeScript of src/bots (bot-plan-jobs.ts).
//
// workerData: { tsxApi: the path of tsx/cjs/api, planModule: the path of bot-plan-jobs.ts }.
// Messages in: { id, jobs }. Out: { id, orders } or { id, error } when a bot throws (the thread
// goes on with the next message).
'use strict'
const { parentPort, workerData } = require('node:worker_threads')
require(workerData.tsxApi).register()
const { planJobs } = require(workerData.planModule)

parentPort.on('message', (message) => {
  try {
    parentPort.postMessage({ id: message.id, orders: planJobs(message.jobs) })
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) })
  }
})
