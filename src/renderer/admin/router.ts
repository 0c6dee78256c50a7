/**
 * The window's pages. Hash history: the same build runs from a file in Electron and over HTTP headless. Each
 * page names the tab (`meta.title`; the Series page names it after its Series once read), and moving to a page
 * moves focus to its heading, so a keyboard or a screen reader starts there.
 */
import { nextTick } from 'vue'
import { createRouter, createWebHashHistory } from 'vue-router'
import LanesPage from './pages/LanesPage.vue'
import OverviewPage from './pages/OverviewPage.vue'
import ReadersPage from './pages/ReadersPage.vue'
import SeriesDetailPage from './pages/SeriesDetailPage.vue'
import SeriesPage from './pages/SeriesPage.vue'
import SettingsPage from './pages/SettingsPage.vue'
import UpdatesPage from './pages/UpdatesPage.vue'

export const APP_NAME = 'Manga Bookmark'

/** The tab's title for a page. */
export function setTitle(page: string): void {
  document.title = `${page} · ${APP_NAME}`
}

export const router = createRouter({
  history: createWebHashHistory(),
  routes: [
    { path: '/', component: OverviewPage, meta: { title: 'Overview' } },
    { path: '/updates', component: UpdatesPage, meta: { title: 'Updates' } },
    { path: '/series', component: SeriesPage, meta: { title: 'Series' } },
    { path: '/series/:site/:seriesId', component: SeriesDetailPage, meta: { title: 'Series' } },
    { path: '/lanes', component: LanesPage, meta: { title: 'Lanes' } },
    { path: '/readers', component: ReadersPage, meta: { title: 'Readers' } },
    { path: '/settings', component: SettingsPage, meta: { title: 'Settings' } },
  ],
})

router.afterEach((to, from) => {
  setTitle(typeof to.meta.title === 'string' ? to.meta.title : APP_NAME)
  // A new page (not the first, not a change of query on the same page): focus its heading.
  if (from.matched.length === 0 || to.path === from.path) return
  void nextTick(() => {
    const heading = document.querySelector<HTMLElement>('main h1')
    if (!heading) return
    heading.tabIndex = -1
    heading.focus({ preventScroll: true })
  })
})
