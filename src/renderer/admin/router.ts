/** The window's pages. Hash history: the same build runs from a file in Electron and over HTTP headless. */
import { createRouter, createWebHashHistory } from 'vue-router'
import LanesPage from './pages/LanesPage.vue'
import OverviewPage from './pages/OverviewPage.vue'
import ReadersPage from './pages/ReadersPage.vue'
import SeriesDetailPage from './pages/SeriesDetailPage.vue'
import SeriesPage from './pages/SeriesPage.vue'
import SettingsPage from './pages/SettingsPage.vue'

export const router = createRouter({
  history: createWebHashHistory(),
  routes: [
    { path: '/', component: OverviewPage },
    { path: '/series', component: SeriesPage },
    { path: '/series/:site/:seriesId', component: SeriesDetailPage },
    { path: '/lanes', component: LanesPage },
    { path: '/readers', component: ReadersPage },
    { path: '/settings', component: SettingsPage },
  ],
})
