import '../shared/theme.css'
import { createApp } from 'vue'
import ReaderApp from './ReaderApp.vue'

createApp(ReaderApp).mount('#app')

// The page itself cached for offline use (docs/adr/0056-the-readers-page-holds-still.md). Browsers allow a
// service worker only on a secure origin — this machine's loopback, or HTTPS — so elsewhere the page still works
// online, with the list and the outbox kept in this browser.
if ('serviceWorker' in navigator && window.isSecureContext) {
  window.addEventListener('load', () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined))
}
