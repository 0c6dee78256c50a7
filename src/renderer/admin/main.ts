import '../shared/theme.css'
import { createApp } from 'vue'
import App from './App.vue'
import { router } from './router'

// A clicked New Chapter notification (Electron) opens its Series.
window.mangaBookmark?.onOpenSeries((key) => void router.push(`/series/${encodeURIComponent(key.site)}/${encodeURIComponent(key.seriesId)}`))

createApp(App).use(router).mount('#app')
