// A signed-in person's name and address as a kept page's slots hold them (HTML-escaped, as bytes),
// worked out once per user row: the session cache hands out one frozen row per person for as long
// as it keeps them (repositories/users.ts), and a new row after any change, so a rename is never
// missed. Keyed weakly by the row: they go together.
import ejs from 'ejs'
import type { UserRow } from '../repositories/users.js'
import { keptBytes } from './gzip-parts.js'

export interface ViewerBytes {
  readonly name: Buffer
  readonly email: Buffer
}

const kept = new WeakMap<Readonly<UserRow>, ViewerBytes>()

export function viewerBytes(user: Readonly<UserRow>): ViewerBytes {
  let bytes = kept.get(user)
  if (bytes === undefined) {
    bytes = Object.freeze({ name: keptBytes(ejs.escapeXML(user.name)), email: keptBytes(ejs.escapeXML(user.email)) })
    kept.set(user, bytes)
  }
  return bytes
}
