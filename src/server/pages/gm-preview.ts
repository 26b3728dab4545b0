// The console's switch for the planning preview (issue 13): its own action and section, apart
// from the other settings, so a GM can turn it off or on again in one click at any time.
import { z } from 'zod'
import { badRequest } from '../errors.js'
import type { Membership, ServiceContext } from '../services/context.js'
import { setPathPreview } from '../services/path-preview.js'

export const PREVIEW_ACTION = 'preview'
export const PREVIEW_DONE_KEY = 'preview-saved'
export const PREVIEW_DONE = { [PREVIEW_DONE_KEY]: 'The path preview setting is saved: players\' forms follow it the next time they open.' }

const previewForm = z.object({ pathPreview: z.enum(['on', 'off'], { error: 'choose whether players see the preview' }) })

/** Runs the console's preview form; refuses a form without an on/off choice, naming the field. */
export function runPreviewAction(ctx: ServiceContext, m: Membership, body: unknown, reason: string): void {
  const form = previewForm.safeParse(body ?? {})
  if (!form.success) throw badRequest(form.error.issues[0]!.message, 'pathPreview')
  setPathPreview(ctx, m, form.data.pathPreview === 'on', reason)
}
