/**
 * What the owner's window may open (docs/design.md#the-owners-window): it never navigates away from the app and never opens windows;
 * http(s) links (a Series on its Site) open in the system browser, anything else is denied. Pure.
 */
export type LinkDecision = 'open-external' | 'deny'

export function linkDecision(raw: string): LinkDecision {
  try {
    const url = new URL(raw)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password ? 'open-external' : 'deny'
  } catch {
    return 'deny'
  }
}

/** A navigation inside the app itself (the renderer's own file, any hash route). */
export function isAppNavigation(raw: string, appUrl: string): boolean {
  try {
    const url = new URL(raw)
    const app = new URL(appUrl)
    return url.protocol === app.protocol && url.host === app.host && url.pathname === app.pathname
  } catch {
    return false
  }
}

/**
 * The one permission the owner's window is granted: writing text to the clipboard (the Readers page copies
 * a new token). Camera, microphone, geolocation, notifications from the page, clipboard reading, MIDI, HID,
 * serial, USB, fullscreen and every permission Chromium adds later are denied, asked or checked.
 */
export function ownerWindowAllows(permission: string): boolean {
  return permission === 'clipboard-sanitized-write'
}
