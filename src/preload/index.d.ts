/** What the preload exposes on `window`, as the renderer sees it. */
declare global {
  interface Window {
    mangaBookmark?: { readonly shell: 'electron' }
  }
}
export {}
