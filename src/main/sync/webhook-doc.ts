/**
 * The webhook a Reader's (or the owner's) channel receives, as the OpenAPI document's `webhooks` entry: the
 * headers, the body and how the signature is made (docs/notifications.md#webhook; docs/adr/0118-…). Written from
 * the constants the sender uses, so the document names what is sent.
 */
import { DELIVERY_HEADER, SIGNATURE_HEADER, SIGNATURE_WINDOW_S } from '../notify/channels'

const chapter = {
  type: 'object',
  required: ['site', 'seriesId', 'title', 'chapter', 'label', 'chapterUrl'],
  properties: {
    site: { type: 'string' },
    seriesId: { type: 'string' },
    title: { type: 'string' },
    chapter: { type: 'number' },
    label: { type: 'string' },
    chapterUrl: { type: 'string', description: "the chapter's page on the Site ('' when not known)" },
  },
}

/** The JSON body of a webhook message. */
export const WEBHOOK_BODY = {
  type: 'object',
  required: ['id', 'reader', 'text', 'newChapters'],
  properties: {
    id: { type: 'string', description: `the delivery id, as in ${DELIVERY_HEADER}: random, the same on every retry, never reused` },
    reader: { type: ['string', 'null'], description: "the Reader's name; null in the owner's messages" },
    text: { type: 'string', description: 'the message in one line' },
    newChapters: { type: 'array', items: chapter },
  },
}

export const SIGNATURE_RULE =
  `${SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex>. v1 is the lowercase hex HMAC-SHA256, keyed with the channel's secret ` +
  `(UTF-8), of the ASCII timestamp t, a full stop and the raw request body as sent (bytes, before any JSON parsing): ` +
  `HMAC(secret, "<t>.<body>"). Each try is signed at its own time. A receiver compares v1 in constant time and ` +
  `refuses a t more than ${SIGNATURE_WINDOW_S} s from its own clock (the replay window); inside the window it drops ` +
  `a delivery id it has already accepted.`

export const WEBHOOKS = {
  newChapters: {
    post: {
      summary: 'New Chapters, sent to a webhook channel',
      description: `Sent by the app to a webhook a Reader (or the owner) set up; any 2xx answer ends it, anything else is retried with backoff (30 s … 3 h, 12 tries). ${SIGNATURE_RULE}`,
      parameters: [
        { name: SIGNATURE_HEADER, in: 'header', required: true, schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' } },
        { name: DELIVERY_HEADER, in: 'header', required: true, schema: { type: 'string', pattern: '^mb-[0-9a-f]{32}$' } },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: WEBHOOK_BODY } } },
      responses: { '200': { description: 'received (any 2xx)' } },
    },
  },
}
