/**
 * The kinds of notification channel, one descriptor each (issue 45: one descriptor per extension point). The
 * kind is a closed union: every table keyed by it is a `Record<ChannelKind, …>`, so a new kind is a new entry
 * here plus the compiler's list of the descriptors still missing it (`src/main/notify/channel-kinds.types.test.ts` proves the
 * list). The database keeps the kind as plain text; it is validated where it enters (the zod schemas, and a
 * stored row of a kind this version does not know fails its delivery with words, never falls to another kind).
 */
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

export function isTypedChannelKind(kind: ChannelKind): kind is TypedChannelKind {
  return CHANNEL_WORDS[kind].choice !== null
}
