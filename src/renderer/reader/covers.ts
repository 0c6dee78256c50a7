/**
 * Covers on the Readers' page: asked of this app with the Reader's token (never of the Site: no hotlinking, and
 * many Sites refuse other referrers), kept for the page's life as `data:` URLs (the page's CSP allows no other
 * image source). A Series without one is asked again after a minute: its cover may come with its next check.
 */
import type { InjectionKey } from 'vue'

/** How the cover components get the Reader's token (ReaderApp provides it). */
export const COVER_TOKEN: InjectionKey<() => string | null> = Symbol('cover token')

const NONE_FOR_MS = 60_000
const kept = new Map<string, { at: number; src: Promise<string | null> }>()

export function coverSrc(site: string, seriesId: string, token: string | null): Promise<string | null> {
  const key = `${site}/${seriesId}`
  const held = kept.get(key)
  if (held && (Date.now() - held.at < NONE_FOR_MS || held.src !== NONE)) return held.src
  const src = load(site, seriesId, token)
  kept.set(key, { at: Date.now(), src })
  return src
}

const NONE: Promise<string | null> = Promise.resolve(null)

async function load(site: string, seriesId: string, token: string | null): Promise<string | null> {
  if (!token) return null
  try {
    const response = await fetch(`/api/v1/covers/${encodeURIComponent(site)}/${encodeURIComponent(seriesId)}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    const type = response.headers.get('content-type') ?? ''
    if (!response.ok || !/^image\/(png|jpeg|gif|webp|avif)$/.test(type)) return null
    const blob = await response.blob()
    return await new Promise<string | null>((resolve) => {
      const reader = new FileReader()
      reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null)
      reader.onerror = () => resolve(null)
      reader.readAsDataURL(blob)
    })
  } catch {
    return null
  }
}
