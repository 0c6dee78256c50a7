/**
 * web-push, loaded on its first use (a push sent, the VAPID keys made or read) rather than at the start: its
 * crypto dependencies cost the start ~20 ms before the first answer (docs/adr/0211-a-start-that-answers-first.md).
 */
import { createRequire } from 'node:module'
import type WebPush from 'web-push'

let loaded: typeof WebPush | undefined

export function webpush(): typeof WebPush {
  return (loaded ??= createRequire(import.meta.url)('web-push') as typeof WebPush)
}
