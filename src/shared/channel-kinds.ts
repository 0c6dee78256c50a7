/**
 * The kinds of notification channel, one descriptor each (issue 45: one descriptor per extension point). The
 * kind is a closed union: every table keyed by it is a `Record<ChannelKind, …>`, so a new kind is a new entry
 * here plus the compiler's list of the descriptors still missing it (`src/main/notify/channel-kinds.types.test.ts` proves the
 * list). The database keeps the kind as plain text; it is validated where it enters (the zod schemas, and a
 * stored row of a kind this version does not know fails its delivery with words, never falls to another kind).
 */
import type { ChannelInput } from './notify-schemas'

export const CHANNEL_KINDS = ['webpush', 'ntfy', 'webhook'] as const
export type ChannelKind = (typeof CHANNEL_KINDS)[number]

export function isChannelKind(value: string): value is ChannelKind {
  return (CHANNEL_KINDS as readonly string[]).includes(value)
}

/** The secret a typed channel may carry: its label, whether a new channel needs one, and its least length. */
export interface SecretField {
  label: string
  required: boolean
  minLength: number
}

/** What a kind is in words, and whether a person types one into a form (Web Push: the browser subscribes). */
export interface ChannelWords {
  /** The kind as a list of channels names it. */
  name: string
  /** The kind in an "Add" choice, or null when no form adds one. */
  choice: string | null
  placeholder: string
  secret: SecretField | null
}

export const CHANNEL_WORDS = {
  webpush: { name: 'Push to a device', choice: null, placeholder: '', secret: null },
  ntfy: {
    name: 'ntfy',
    choice: 'an ntfy topic',
    placeholder: 'https://ntfy.sh/your-topic',
    secret: { label: 'Access token (optional)', required: false, minLength: 1 },
  },
  webhook: {
    name: 'Webhook',
    choice: 'a webhook',
    placeholder: 'https://example.com/hooks/manga',
    secret: { label: 'Signing secret (16+ characters)', required: true, minLength: 16 },
  },
} as const satisfies Record<ChannelKind, ChannelWords>

/** The kinds a person adds by typing a URL (and maybe a secret). */
export type TypedChannelKind = {
  [K in ChannelKind]: (typeof CHANNEL_WORDS)[K]['choice'] extends string ? K : never
}[ChannelKind]

export const TYPED_CHANNEL_KINDS = CHANNEL_KINDS.filter((k): k is TypedChannelKind => CHANNEL_WORDS[k].choice !== null)

/** What a typed channel's form sends: the kind's own field for its secret, left out when empty. */
export type TypedChannelInput = Extract<ChannelInput, { kind: TypedChannelKind }>

export const TYPED_CHANNEL_INPUT: { [K in TypedChannelKind]: (url: string, secret: string) => Extract<TypedChannelInput, { kind: K }> } = {
  ntfy: (url, secret) => ({ kind: 'ntfy', url, token: secret || undefined }),
  webhook: (url, secret) => ({ kind: 'webhook', url, secret: secret || undefined }),
}

export function isTypedChannelKind(kind: ChannelKind): kind is TypedChannelKind {
  return CHANNEL_WORDS[kind].choice !== null
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
