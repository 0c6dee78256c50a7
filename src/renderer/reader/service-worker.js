/*
 * The Readers' page's service worker (docs/adr/0056-the-readers-page-holds-still.md): the page and its assets
 * cached, so a reload offline still opens it. The page is read from the network first (a new build shows at
 * once) and from the cache when the network fails; hashed assets from the cache first. The API is never cached:
 * the page keeps its own copy of the list and an outbox of writes.
 *
 * The build writes it to out/renderer/sw.js with the placeholder below replaced by a hash of the build's assets
 * (scripts/service-worker.ts, docs/adr/0099): a new build is a new worker with a new cache, and its activation
 * deletes every older cache, so the assets of past builds do not pile up on a Reader's phone.
 */
const CACHE = 'mb-reader-__MB_CACHE_VERSION__'
const SHELL = ['/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png']

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE)
      const page = await fetch('/', { cache: 'no-cache' })
      if (!page.ok) throw new Error(`the page answered ${page.status}`)
      const html = await page.clone().text()
      const assets = [...html.matchAll(/(?:src|href)="(?:\.\/|\/)?(assets\/[^"]+)"/g)].map((m) => `/${m[1]}`)
      await cache.put('/', page)
      await cache.addAll([...new Set([...assets, ...SHELL])])
      await self.skipWaiting()
    })(),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name)
      await self.clients.claim()
    })(),
  )
})

self.addEventListener('fetch', (event) => {
  const request = event.request
  const url = new URL(request.url)
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return
  if (request.mode === 'navigate' || url.pathname === '/') {
    event.respondWith(networkFirst('/', request))
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request))
  } else if (SHELL.includes(url.pathname)) {
    event.respondWith(networkFirst(url.pathname, request))
  }
})

async function networkFirst(key, request) {
  const cache = await caches.open(CACHE)
  try {
    const response = await fetch(request)
    if (response.ok) await cache.put(key, response.clone())
    return response
  } catch (error) {
    const cached = await cache.match(key)
    if (cached) return cached
    throw error
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE)
  const cached = await cache.match(request)
  if (cached) return cached
  const response = await fetch(request)
  if (response.ok) await cache.put(request, response.clone())
  return response
}

// A digest of New Chapters pushed by the app (docs/adr/0074-…): one notification per Series, tagged by the
// Series with renotify (a newer chapter of it replaces the older one and buzzes again; another Series never
// silently replaces it), and a click opens its chapter.
self.addEventListener('push', (event) => {
  let message = { title: 'New Chapters', body: '', url: '/', tag: 'mb-new-chapters' }
  try {
    message = { ...message, ...event.data.json() }
  } catch {
    // Not JSON: shown with the words it has.
    message.body = event.data ? event.data.text() : ''
  }
  const notices = Array.isArray(message.notices) && message.notices.length > 0 ? message.notices : [message]
  event.waitUntil(
    Promise.all(
      notices.map((n) =>
        self.registration.showNotification(n.title || message.title, {
          body: n.body || '',
          icon: '/icons/icon-192.png',
          tag: n.tag || message.tag || 'mb-new-chapters',
          renotify: true,
          data: { url: n.url || '/' },
        }),
      ),
    ),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = event.notification.data && event.notification.data.url
  event.waitUntil(self.clients.openWindow(/^https?:\/\//.test(url) ? url : '/'))
})
