/**
 * When Check now is offered (docs/adr/0001-commands-through-the-database.md): never for a Series with no
 * URL or no Reader — the two gates a Forced Poll never overrides. One rule for the window and the core.
 */
export function checkNowRefusal(series: { url: string; readerCount: number }): string | null {
  if (!series.url) return 'this Series has no URL: set one first'
  if (series.readerCount === 0) return 'no Reader holds this Series, so it is never polled'
  return null
}
