// `botwars resolve` options (FORMAT.md §3 plus --report and --names): what is accepted, and what is
// refused with a message naming the option.
import { describe, expect, it } from 'vitest'
import { InputError } from '../../src/cli/io.js'
import { parseResolveArgs } from '../../src/cli/resolve.js'

const refusal = (args: string[]) => {
  try {
    parseResolveArgs(args)
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }
  throw new Error(`accepted ${args.join(' ')}`)
}

describe('botwars resolve options', () => {
  it('takes one case, --report, and --names as one argument or with =', () => {
    expect(parseResolveArgs(['case.json'])).toEqual({ file: 'case.json', report: false, names: null })
    expect(parseResolveArgs(['-', '--report', '--names', 'Ann Lee, Bob'])).toEqual({ file: '-', report: true, names: ['Ann Lee', 'Bob'] })
    expect(parseResolveArgs(['--names=Ann,Bob', '--report', 'case.json'])).toEqual({ file: 'case.json', report: true, names: ['Ann', 'Bob'] })
  })
  it('refuses --names without names, with an empty or repeated name, or without --report', () => {
    expect(refusal(['case.json', '--report', '--names'])).toMatch(/^--names: give the names/)
    expect(refusal(['case.json', '--report', '--names', 'Ann,,Bob'])).toBe('--names: name 2 is empty')
    expect(refusal(['case.json', '--report', '--names', 'Ann,Ann'])).toBe('--names: a name is given twice')
    expect(refusal(['case.json', '--names', 'Ann,Bob'])).toMatch(/^--names: only the report/)
  })
  it('refuses an unknown option and anything but exactly one case', () => {
    expect(refusal(['case.json', '--colour'])).toMatch(/^unknown option --colour/)
    expect(refusal([])).toMatch(/^usage:/)
    expect(refusal(['a.json', 'b.json'])).toMatch(/^usage:/)
  })
})
