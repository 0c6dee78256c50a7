/** Formatting shared by the window, the Readers' page and the tray. Pure. */

/** "12 s", "3 min", "5 h", "2 d" — how long ago (or how far ahead) `ms` is. */
export function ageWords(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min`
  const h = Math.floor(m / 60)
  if (h < 48) return `${h} h`
  return `${Math.floor(h / 24)} d`
}

/** A chapter number as people write it: 12, 12.5. */
export function chapterWords(n: number | null): string {
  if (n === null) return '—'
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100)
}

/** A clock time for "until …": today as HH:MM, otherwise with the date — both in the local time zone. */
export function untilWords(at: number, now: number): string {
  const d = new Date(at)
  const two = (n: number) => String(n).padStart(2, '0')
  const time = `${two(d.getHours())}:${two(d.getMinutes())}`
  const date = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`
  return new Date(now).toDateString() === d.toDateString() ? time : `${date} ${time}`
}

/** A file's size as a person reads it: `512 B`, `4.0 KB`, `1.2 MB`. Pure. */
export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
