/** One-time sign-in codes: exchanged once, within their minutes, and never kept in clear. Time is a FakeClock. */
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../testing/clock'
import { codeId, MAX_WAITING_CODES, SIGN_IN_CODE_PATTERN, SIGN_IN_CODE_TTL_MS, SignInCodes } from './sign-in-codes'

describe('SignInCodes', () => {
  it('admits a code made elsewhere by its id, once, never past its own expiry nor a code made here', async () => {
    const clock = new FakeClock()
    const codes = new SignInCodes(clock)
    const made = 'A'.repeat(43)
    codes.admit(codeId(made), clock.now() + 60_000, 'admin-session')
    expect(codes.redeem('B'.repeat(43))).toBeUndefined()
    expect(codes.redeem(made)).toBe('admin-session')
    expect(codes.redeem(made)).toBeUndefined()
    const later = 'C'.repeat(43)
    codes.admit(codeId(later), clock.now() + 60_000, 'admin-session')
    await clock.advance(60_000)
    expect(codes.redeem(later)).toBeUndefined()
    const far = 'D'.repeat(43)
    codes.admit(codeId(far), clock.now() + 10 * SIGN_IN_CODE_TTL_MS, 'admin-session')
    await clock.advance(SIGN_IN_CODE_TTL_MS)
    expect(codes.redeem(far)).toBeUndefined()
    codes.admit('not-an-id', clock.now() + 60_000, 'admin-session')
    expect(codes.size).toBe(0)
  })

  it('exchanges a code once for what it stands for', () => {
    const codes = new SignInCodes(new FakeClock())
    const { code } = codes.issue('the-readers-token')
    expect(code).toMatch(SIGN_IN_CODE_PATTERN)
    expect(codes.redeem(code)).toBe('the-readers-token')
    expect(codes.redeem(code)).toBeUndefined()
  })

  it('ends a code at its expiry, and an expired code is spent too', async () => {
    const clock = new FakeClock()
    const codes = new SignInCodes(clock)
    const early = codes.issue('a')
    const late = codes.issue('b')
    expect(early.expiresAt).toBe(clock.now() + SIGN_IN_CODE_TTL_MS)
    await clock.advance(SIGN_IN_CODE_TTL_MS - 1)
    expect(codes.redeem(early.code)).toBe('a')
    await clock.advance(1)
    expect(codes.redeem(late.code)).toBeUndefined()
    expect(codes.size).toBe(0)
  })

  it('refuses unknown, malformed and altered codes, and an unknown code spends nothing', () => {
    const codes = new SignInCodes(new FakeClock())
    const { code } = codes.issue('x')
    const altered = `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`
    for (const wrong of [altered, '', 'short', `${code}=`, code.toUpperCase() === code ? 'x' : code.toUpperCase()])
      expect(codes.redeem(wrong)).toBeUndefined()
    expect(codes.redeem(code)).toBe('x')
  })

  it('holds at most MAX_WAITING_CODES, dropping the oldest, and drops expired ones as new ones come', async () => {
    const clock = new FakeClock()
    const codes = new SignInCodes(clock)
    const first = codes.issue('first')
    for (let i = 0; i < MAX_WAITING_CODES; i++) codes.issue(String(i))
    expect(codes.size).toBe(MAX_WAITING_CODES)
    expect(codes.redeem(first.code)).toBeUndefined()
    await clock.advance(SIGN_IN_CODE_TTL_MS)
    codes.issue('after')
    expect(codes.size).toBe(1)
  })
})
