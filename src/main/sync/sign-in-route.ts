/**
 * The sync API's sign-in route (docs/adr/0087-sign-in-links-that-end.md), a plugin of its own: the Readers' page
 * exchanges the one-time code of a sign-in link (the QR code on the owner's token screen) for the Reader's token,
 * once, within its minutes. No token is needed to call it; an address may try a few times a minute.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../shared/errors'
import { SIGN_IN_CODE_PATTERN } from '../access/sign-in-codes'
import { SPENT_READER_LINK } from '../access/sign-in-words'
import { readerForToken } from '../use-cases/reader-tokens'
import { answer, REFUSAL, WITH_A_BODY } from './openapi'
import type { SyncDeps } from './routes'

/** Tries per address per minute: a person scanning twice is well inside it; a 43-character code is not guessed. */
export const SIGN_IN_TRIES_PER_MINUTE = 10

const SignInBody = z.strictObject({ code: z.string().regex(SIGN_IN_CODE_PATTERN, 'not a sign-in code (43 characters)') })
const SignInAnswer = z.strictObject({ token: z.string() })

export const SPENT_CODE = SPENT_READER_LINK

export const signInRoute: FastifyPluginAsyncZod<{ deps: SyncDeps }> = async (app, { deps }) => {
  app.post(
    '/api/v1/sign-in',
    {
      config: { rateLimit: { max: SIGN_IN_TRIES_PER_MINUTE, timeWindow: 60_000 } },
      schema: {
        summary:
          "Exchange the one-time code of a sign-in link (`/#code=…`, the QR code the owner's window shows) for the Reader's token. A code works once, within 10 minutes of being made, and not after the app restarts.",
        security: [],
        body: SignInBody,
        response: {
          200: answer(SignInAnswer, "the Reader's token, to keep on the device"),
          ...WITH_A_BODY,
          401: REFUSAL[401],
          429: REFUSAL[429],
        },
      },
    },
    async (request) => {
      const token = deps.readerCodes?.redeem(request.body.code)
      // A token rotated or a Reader removed since the link was made signs no one in.
      if (token === undefined || !(await readerForToken(deps.db, token))) throw new AppError('unauthorized', SPENT_CODE)
      return { token }
    },
  )
}
