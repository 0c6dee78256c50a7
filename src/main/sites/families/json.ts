/** JSON answers of a Site's API, read once: anything else is an `AdapterError` in words. */
import { AdapterError } from '../site'

export function readJson(body: string, what: string): unknown {
  try {
    return JSON.parse(body) as unknown
  } catch {
    throw new AdapterError(`${what} is not JSON`)
  }
}
