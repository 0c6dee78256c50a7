// @vitest-environment happy-dom
/**
 * The Readers' page while the app's library is missing (docs/adr/0114-an-empty-start-keeps-the-backups.md): the
 * endpoint answers `library-missing` (503), and the page keeps its saved token — tokens are shown once — and says
 * why; only an unknown token (401) signs the Reader out. The answers are the endpoint's bodies as it sends them
 * (src/main/empty-start.test.ts checks the endpoint's side).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useReader } from '../useReader'

const MISSING = {
  error: {
    code: 'library-missing',
    message:
      "the app's library is empty: its database was deleted or moved, and the owner has backups to restore it from; keep your token, it works again once a backup is restored",
  },
}

function memoryStorage(): Storage {
  const data = new Map<string, string>()
  return {
    get length() {
      return data.size
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  }
}

const answering = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))

afterEach(() => vi.unstubAllGlobals())

describe("the Readers' page while the library is missing", () => {
  it('keeps the saved token and says why on library-missing; an unknown token still signs out', async () => {
    const storage = memoryStorage()
    storage.setItem('mb.token', 'the-token-shown-once')
    vi.stubGlobal('fetch', answering(503, MISSING))
    const state = useReader(storage)
    await state.refresh({ full: true })
    expect(storage.getItem('mb.token')).toBe('the-token-shown-once')
    expect(state.token.value).toBe('the-token-shown-once')
    expect(state.problem.value).toContain('keep your token')
    expect(await state.signIn('the-token-shown-once')).toBe(false)
    expect(state.signInError.value).toMatch(/^The app's library is empty/)
    expect(storage.getItem('mb.token')).toBe('the-token-shown-once')

    vi.stubGlobal('fetch', answering(401, { error: { code: 'unauthorized', message: 'unknown token' } }))
    await state.refresh({ full: true })
    expect(storage.getItem('mb.token')).toBeNull()
  })
})
