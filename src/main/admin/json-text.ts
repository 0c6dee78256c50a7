/**
 * An admin answer already written as JSON text (a 50,000-bookmark export made in a worker thread and streamed,
 * docs/adr/0093-…, docs/adr/0176-…): the admin listener sends its chunks as they come, so the main thread never
 * stringifies or holds it; the window's IPC, which can only pass plain data, gathers and parses it.
 */
import type { Readable } from 'node:stream'

export class JsonText {
  constructor(readonly text: Readable) {}
  /** The text wrapped as `{"value":…}`, as the admin listener answers. */
  async *asValue(): AsyncGenerator<Buffer> {
    yield Buffer.from('{"value":')
    for await (const chunk of this.text) yield chunk as Buffer
    yield Buffer.from('}')
  }
  async parse(): Promise<unknown> {
    const chunks: Buffer[] = []
    for await (const chunk of this.text) chunks.push(chunk as Buffer)
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  }
}
