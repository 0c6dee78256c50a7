/**
 * What a channel's form and a channel shown sent back make as input (the zod types of notify-schemas.ts), keyed by
 * the kind (channel-kinds.ts): a new kind is a compile error here until it has its entry.
 */
import type { ChannelKind, TypedChannelKind } from './channel-kinds'
import type { ChannelInput } from './notify-schemas'

/** What a typed channel's form sends: the kind's own field for its secret, left out when empty. */
export type TypedChannelInput = Extract<ChannelInput, { kind: TypedChannelKind }>

export const TYPED_CHANNEL_INPUT: { [K in TypedChannelKind]: (url: string, secret: string) => Extract<TypedChannelInput, { kind: K }> } = {
  ntfy: (url, secret) => ({ kind: 'ntfy', url, token: secret || undefined }),
  webhook: (url, secret) => ({ kind: 'webhook', url, secret: secret || undefined }),
}

/** A channel as a view shows it, sent back unchanged: its id keeps its secret (or a subscription's keys) on the server. */
const KEPT: { [K in ChannelKind]: (id: number, url: string) => Extract<ChannelInput, { kind: K }> } = {
  webpush: (id, url) => ({ kind: 'webpush', id, endpoint: url }),
  ntfy: (id, url) => ({ kind: 'ntfy', id, url }),
  webhook: (id, url) => ({ kind: 'webhook', id, url }),
}

export function keptChannel(view: { kind: ChannelKind; id: number; url: string }): ChannelInput {
  return KEPT[view.kind](view.id, view.url)
}
