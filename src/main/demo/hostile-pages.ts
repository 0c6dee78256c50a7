/**
 * The fixture site's hostile pages: a real Madara page (it parses like any other) whose script tries one way
 * out of the host pin — to `to`, an unpinned `host:port` — and then reports on the pinned host that the
 * attempt has settled (`/hostile/done?attack=…`), so a test waits for the attempt rather than for a clock.
 */

/** The ways out a page on a pinned browser Site can try (docs/security.md, "The browser fetcher"). */
export const ATTACKS = [
  'websocket',
  'blob-worker-websocket',
  'worker-websocket',
  'worker-fetch',
  'blob-worker-fetch',
  'shared-worker-fetch',
  'service-worker',
  'window-open',
  'target-blank',
  'beacon',
  'event-source',
  'prefetch',
  'preconnect',
  'iframe',
  'location',
  'webrtc',
  'popup-on-pin',
  'timer',
] as const
export type Attack = (typeof ATTACKS)[number]

export const isAttack = (value: string | null): value is Attack => (ATTACKS as readonly string[]).includes(value ?? '')

/** `host:port` of a loopback or named host; anything else is not rendered into a script. */
export const isDestination = (value: string | null): value is string => /^(?:[a-z0-9.-]+|\[[0-9a-f:]+\]):\d{1,5}$/i.test(value ?? '')

/** The script that settles the attempt: `done()` reports once, whatever ends first. */
const settle = (attack: Attack, fallbackMs = 600) =>
  `var reported = false; function done(how) { if (reported) return; reported = true; ` +
  `fetch('/hostile/done?attack=${attack}&how=' + encodeURIComponent(how || '')).catch(function () {}) }` +
  ` setTimeout(function () { done('timeout') }, ${fallbackMs});`

/** Markup and script appended to the page's body for one attack on `to`. */
export function hostileExtras(attack: Attack, to: string): string {
  const off = `http://${to}`
  const ws = `ws://${to}`
  const worker = (kind: 'websocket' | 'fetch') => `/hostile/worker.js?attack=${kind}&to=${encodeURIComponent(to)}`
  const script = (body: string, fallbackMs?: number) => `<script>${settle(attack, fallbackMs)} ${body}</script>`
  switch (attack) {
    case 'websocket':
      return script(
        `var s = new WebSocket('${ws}/page-ws'); s.onopen = function () { done('open') }; s.onerror = function () { done('error') };`,
      )
    case 'blob-worker-websocket': {
      const source = `var s = new WebSocket('${ws}/blob-ws'); s.onopen = function () { postMessage('open') }; s.onerror = function () { postMessage('error') };`
      return script(
        `var w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(source)}], { type: 'text/javascript' }))); w.onmessage = function (e) { done(e.data) };`,
      )
    }
    case 'blob-worker-fetch': {
      const source = `fetch('${off}/blob-fetch', { mode: 'no-cors' }).then(function () { postMessage('fetched') }, function () { postMessage('refused') });`
      return script(
        `var w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(source)}], { type: 'text/javascript' }))); w.onmessage = function (e) { done(e.data) };`,
      )
    }
    case 'worker-websocket':
      return script(`var w = new Worker('${worker('websocket')}'); w.onmessage = function (e) { done(e.data) };`)
    case 'worker-fetch':
      return script(`var w = new Worker('${worker('fetch')}'); w.onmessage = function (e) { done(e.data) };`)
    case 'shared-worker-fetch':
      return script(`var w = new SharedWorker('${worker('fetch')}'); w.port.onmessage = function (e) { done(e.data) }; w.port.start();`)
    case 'service-worker':
      return script(
        `navigator.serviceWorker.register('/hostile/sw.js?to=${encodeURIComponent(to)}')` +
          `.then(function () { return navigator.serviceWorker.ready }).then(function () { setTimeout(function () { done('registered') }, 500) })` +
          `.catch(function () { done('refused') });`,
        2_000,
      )
    case 'window-open':
      return script(`window.open('${off}/window-open');`)
    case 'target-blank':
      return `<a id="away" href="${off}/target-blank" target="_blank">away</a>${script(`document.getElementById('away').click();`)}`
    case 'beacon':
      return script(`navigator.sendBeacon('${off}/beacon', 'x');`)
    case 'event-source':
      return script(
        `var e = new EventSource('${off}/event-source'); e.onopen = function () { done('open') }; e.onerror = function () { done('error') };`,
      )
    case 'prefetch':
      return `<link rel="prefetch" href="${off}/prefetch"><link rel="dns-prefetch" href="${off}">${script('')}`
    case 'preconnect':
      return `<link rel="preconnect" href="${off}">${script('')}`
    case 'iframe':
      return `<iframe src="${off}/iframe"></iframe>${script('')}`
    case 'location':
      // After the page is read: the tab itself walks off the pin.
      return script(`done('leaving'); setTimeout(function () { location.href = '${off}/location' }, 20);`)
    case 'webrtc':
      // STUN over UDP and TURN over TCP, both to `to`; the page reports when ICE gathering is over.
      return script(
        `var pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:${to}' }, { urls: 'turn:${to}?transport=tcp', username: 'u', credential: 'p' }] });` +
          ` pc.createDataChannel('x'); pc.onicegatheringstatechange = function () { if (pc.iceGatheringState === 'complete') done('gathered') };` +
          ` pc.createOffer().then(function (o) { return pc.setLocalDescription(o) }).catch(function () { done('failed') });`,
        3_000,
      )
    case 'popup-on-pin':
      // A tab on the pinned host that keeps calling home: it lives only as long as nobody closes it.
      return script(`window.open('/hostile/popup/');`)
    case 'timer':
      // Left running, this page keeps calling `to` (the next Site's host, in the test that moves Sites).
      return `<script>setInterval(function () { fetch('${off}/left-behind', { mode: 'no-cors' }).catch(function () {}) }, 50);</script>`
  }
}

/** A dedicated or shared worker trying `to` itself; it posts how the attempt ended. */
export function hostileWorker(kind: string, to: string): string {
  const reply = `function reply(m) { if (typeof postMessage === 'function') postMessage(m); ports.forEach(function (p) { p.postMessage(m) }) }`
  const shared = `var ports = []; var pending = []; self.onconnect = function (e) { ports.push(e.ports[0]); pending.forEach(function (m) { e.ports[0].postMessage(m) }) };`
  const remember = `var _reply = reply; reply = function (m) { pending.push(m); _reply(m) };`
  const attempt =
    kind === 'websocket'
      ? `var s = new WebSocket('ws://${to}/dedicated-ws'); s.onopen = function () { reply('open') }; s.onerror = function () { reply('error') };`
      : `fetch('http://${to}/worker-fetch', { mode: 'no-cors' }).then(function () { reply('fetched') }, function () { reply('refused') });`
  return `${shared} ${reply} ${remember} ${attempt}`
}

/** A service worker that calls `to` as soon as it installs. */
export function hostileServiceWorker(to: string): string {
  return `self.addEventListener('install', function (e) { e.waitUntil(fetch('http://${to}/service-worker', { mode: 'no-cors' }).catch(function () {})) });`
}

/** The page a popup opens on the pinned host: it calls home every 100 ms while it is open. */
export function hostilePopup(): string {
  return `<!DOCTYPE html><title>Popup</title><script>setInterval(function () { fetch('/hostile/beat').catch(function () {}) }, 100)</script>`
}
