// Tests that need Chromium or dovecot skip loudly where the program is missing, but fail under CI:
// .ci/run installs both, and a failed install must not give a green run that never ran them.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { missingTool } from '../required-tool.js'

afterEach(() => { vi.restoreAllMocks() })

describe('a missing tool the tests need', () => {
  it('fails the tests under CI, naming the tool and how to install it', () => {
    expect(() => missingTool('BROWSER TESTS: /usr/bin/chromium is missing', 'apt-get install -y chromium', { CI: 'true' }))
      .toThrow(/\/usr\/bin\/chromium is missing, and CI runs these tests: apt-get install -y chromium/)
  })

  it('on a developer\'s machine, says so loudly and lets them skip', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(() => missingTool('IMAP TESTS: dovecot is missing', 'apt-get install -y dovecot-imapd', {})).not.toThrow()
    expect(warn).toHaveBeenCalledOnce()
    expect(String(warn.mock.calls[0]![0])).toMatch(/IMAP TESTS: dovecot is missing: THESE TESTS ARE SKIPPED[\s\S]*apt-get install -y dovecot-imapd/)
  })
})
