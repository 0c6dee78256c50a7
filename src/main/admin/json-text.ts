/**
 * An admin answer already written as JSON text (a 50,000-bookmark export made in a worker thread, docs/adr/0093-…):
 * the admin listener sends its bytes as they are, so the main thread never stringifies it; the window's IPC,
 * which can only pass plain data, parses it.
 */
export class JsonText {
  constructor(readonly bytes: Buffer) {}
  parse(): unknown {
    return JSON.parse(this.bytes.toString('utf8'))
  }
}
