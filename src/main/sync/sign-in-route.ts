/**
 * The sync API's sign-in route (docs/adr/0087-sign-in-links-that-end.md): the Readers' page exchanges the
 * one-time code of a sign-in link (the QR code on the owner's token screen) for the Reader's token, once, within
 * its minutes. No token is needed to call it; an address may try a few times a minute.
 */
import { z } from 'zod'
import { AppError } from '../../shared/errors'
import { SIGN_IN_CODE_PATTERN } from '../admin/sign-in-codes'
import { readerForToken } from '../use-cases/reader-tokens'
import { route, type RouteContext } from './routes'

/** Tries per address per minute: a person scanning twice is well inside it; a 43-character code is not guessed. */
export const SIGN_IN_TRIES_PER_MINUTE = 10

const SignInBody = z.strictObject({ code: z.string().regex(SIGN_IN_CODE_PATTERN, 'not a sign-in code (43 characters)') })
const SignInAnswer = z.strictObject({ token: z.string() })

export const SPENT_CODE =
  'this sign-in link was already used or has expired — a link works once, within 10 minutes. Ask the owner for a new one (Readers → Rotate token shows a new QR code), or type your token.'

export const SIGN_IN_ROUTE = route({
  method: 'POST',
  path: '/api/v1/sign-in',
  summary:
    "Exchange the one-time code of a sign-in link (`/#code=…`, the QR code the owner's window shows) for the Reader's token. A code works once, within 10 minutes of being made, and not after the app restarts.",
  auth: false,
  rateLimit: { max: SIGN_IN_TRIES_PER_MINUTE, windowMs: 60_000 },
  body: SignInBody,
  response: { status: 200, schema: SignInAnswer, description: "the Reader's token, to keep on the device" },
  errors: [401, 413, 415, 422, 429],
  handle: async ({ body, deps }: RouteContext<unknown, unknown, z.infer<typeof SignInBody>>) => {
    const token = deps.readerCodes?.redeem(body.code)
    // A token rotated or a Reader removed since the link was made signs no one in.
    if (token === undefined || !(await readerForToken(deps.db, token))) throw new AppError('unauthorized', SPENT_CODE)
    return { body: { token } }
  },
})
