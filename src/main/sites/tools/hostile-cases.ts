/**
 * Each family's adapter with a Series URL it reads, for its hostile page (tools/hostile-pages.ts): the hostile
 * tests and `adapter-cost.ts` read the same table, so a new family is one row here.
 */
import { FAMILIES } from '../families'
import { selectorAdapter } from '../families/selectors'
import type { Adapter } from '../site'
import type { HostileFamily } from './hostile-pages'

export interface HostileCase {
  adapter: Adapter
  url: string
}

/** A fresh adapter per family (adapters keep no state, but a test should not share one with another). */
export function hostileCases(): Record<HostileFamily, HostileCase> {
  return {
    madara: { adapter: FAMILIES.madara.adapter(), url: 'https://scans.example/manga/hostile/' },
    mangathemesia: { adapter: FAMILIES.mangathemesia.adapter(), url: 'https://bloom.example/manga/hostile/' },
    webtoons: { adapter: FAMILIES.webtoons.adapter(), url: 'https://www.webtoons.com/en/x/hostile/list?title_no=1' },
    selectors: { adapter: selectorAdapter({ chapter: 'li.ch a', number: 'attr:data-n' }), url: 'https://small.example/s/hostile' },
    mangadex: { adapter: FAMILIES.mangadex.adapter(), url: 'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/hostile' },
    keyoapp: { adapter: FAMILIES.keyoapp.adapter(), url: 'https://keyo.example/series/hostile/' },
    mangabox: { adapter: FAMILIES.mangabox.adapter(), url: 'https://box.example/manga/hostile' },
    madtheme: { adapter: FAMILIES.madtheme.adapter(), url: 'https://buddy.example/hostile' },
    zeistmanga: { adapter: FAMILIES.zeistmanga.adapter(), url: 'https://blog.example/2026/01/hostile.html' },
    comiciviewer: { adapter: FAMILIES.comiciviewer.adapter(), url: 'https://comic.example/series/hostile' },
    mangacatalog: { adapter: FAMILIES.mangacatalog.adapter(), url: 'https://tide.example/manga/hostile/' },
    pizzareader: { adapter: FAMILIES.pizzareader.adapter(), url: 'https://pizza.example/comics/hostile' },
    gigaviewer: { adapter: FAMILIES.gigaviewer.adapter(), url: 'https://giga.example/episode/1' },
    wpcomics: { adapter: FAMILIES.wpcomics.adapter(), url: 'https://truyen.example/truyen-tranh/hostile' },
    grouple: { adapter: FAMILIES.grouple.adapter(), url: 'https://read.example/hostile' },
    foolslide: { adapter: FAMILIES.foolslide.adapter(), url: 'https://fool.example/series/hostile/' },
    mmrcms: { adapter: FAMILIES.mmrcms.adapter(), url: 'https://cms.example/manga/hostile' },
    mangareader: { adapter: FAMILIES.mangareader.adapter(), url: 'https://raw.example/hostile' },
    navercomic: { adapter: FAMILIES.navercomic.adapter(), url: 'https://comic.naver.com/webtoon/list?titleId=1' },
    xcomic: { adapter: FAMILIES.xcomic.adapter(), url: 'https://xcomic.me/comic/1-hostile' },
    libgroup: { adapter: FAMILIES.libgroup.adapter(), url: 'https://mangalib.me/ru/manga/1--hostile' },
    goda: { adapter: FAMILIES.goda.adapter(), url: 'https://baozimh.org/manga/hostile' },
    kagane: { adapter: FAMILIES.kagane.adapter(), url: 'https://kagane.to/series/hostile' },
    mangatoon: { adapter: FAMILIES.mangatoon.adapter(), url: 'https://mangatoon.mobi/vi/detail/1' },
    mangahub: { adapter: FAMILIES.mangahub.adapter(), url: 'https://mangahub.io/manga/hostile' },
    iken: { adapter: FAMILIES.iken.adapter(), url: 'https://iken.example/series/hostile' },
  }
}
