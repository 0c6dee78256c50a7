import { describe, expect, it } from 'vitest'
import { SKIP_WORDS } from './skip'

describe('the words of a skip', () => {
  it('nothing-eligible names every reason a Series is not eligible, Finished included (issue 24)', () => {
    // A Site whose Series are all Finished skips so; the words must not send the owner looking for URLs or Readers.
    expect(SKIP_WORDS['nothing-eligible']).toMatch(/URL/)
    expect(SKIP_WORDS['nothing-eligible']).toMatch(/Reader/)
    expect(SKIP_WORDS['nothing-eligible']).toMatch(/not Finished/)
  })
})
