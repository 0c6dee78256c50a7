/**
 * The window's pages. Hash history: the same build runs from a file in Electron and over HTTP headless. Each
 * page names the tab (`meta.title`; the Series page names it after its Series once read), and moving to a page
 * moves focus to its heading, so a keyboard or a screen reader starts there. Pages load when first visited, each
 * its own chunk: the window starts with the page it shows, not all seven (docs/adr/0098).
 */
import { nextTick } from 'vue'
import { createRouter, createWebHashHistory } from 'vue-router'

export const APP_NAME = 'Manga Bookmark'

/** The tab's title for a page. */
export function setTitle(page: string): void {
  document.title = `${page} · ${APP_NAME}`
}

export const router = createRouter({
  history: createWebHashHistory(),
  routes: [
    { path: '/', component: () => import('./pages/OverviewPage.vue'), meta: { title: 'Overview' } },
    { path: '/updates', component: () => import('./pages/UpdatesPage.vue'), meta: { title: 'Updates' } },
    { path: '/series', component: () => import('./pages/SeriesPage.vue'), meta: { title: 'Series' } },
    { path: '/series/:site/:seriesId', component: () => import('./pages/SeriesDetailPage.vue'), meta: { title: 'Series' } },
    { path: '/lanes', component: () => import('./pages/LanesPage.vue'), meta: { title: 'Lanes' } },
    { path: '/readers', component: () => import('./pages/ReadersPage.vue'), meta: { title: 'Readers' } },
    { path: '/settings', component: () => import('./pages/SettingsPage.vue'), meta: { title: 'Settings' } },
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
