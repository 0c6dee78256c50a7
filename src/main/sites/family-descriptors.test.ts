/**
 * Each family's descriptor (src/shared/site-families.ts) says what its adapter does: it searches when its
 * adapter has a search, has a feed when the app reads one, reads the themes no other family claims; and Add a
 * Site names it in the descriptor's words.
 */
import { describe, expect, it } from 'vitest'
import { FAMILY_KEYS, backupSeriesPath, familiesThat, familyName, familyWords, SITE_FAMILIES } from '../../shared/site-families'
import { THEMES_READ_AS } from '../../../scripts/known-sites'
import { FAMILIES } from './families'
import { siteFeed } from './feeds'

describe('family descriptors', () => {
  it('a family searches exactly when its descriptor says so', () => {
    const searching = FAMILY_KEYS.filter((key) => FAMILIES[key].adapter().search !== undefined)
    expect(searching).toEqual(familiesThat('searches'))
    expect(searching.length).toBeGreaterThan(0)
  })

  it('a family has a feed exactly when its descriptor says so', () => {
    const feeding = FAMILY_KEYS.filter((key) => siteFeed(FAMILIES[key].adapter()) !== undefined)
    expect(feeding).toEqual(familiesThat('feed'))
    expect(feeding).toContain('mangadex')
  })

  it('no theme is read by two families; a look-alike theme is read by its family', () => {
    const themes = FAMILY_KEYS.flatMap((key) => SITE_FAMILIES[key].themes)
    expect(new Set(themes).size).toBe(themes.length)
    expect(THEMES_READ_AS).toEqual({ manhwaz: 'madara', masonry: 'gallerypage' })
  })

  it('names a family in its words, and a key this version does not know as it is', () => {
    expect(familyWords('madara')).toBe('Madara (WordPress)')
    expect(familyWords('webtoons')).toBe('Webtoons')
    expect(familyName('navercomic')).toBe('Naver Webtoon')
    expect(familyWords('madara-next')).toBe('madara-next')
    expect(familyName('constructor')).toBe('constructor')
    for (const key of FAMILY_KEYS) expect(familyWords(key)).toMatch(new RegExp(`^${SITE_FAMILIES[key].name}( \\(.+\\))?$`))
  })

  it("reads a backup's bare id under the prefix of a family whose extension stores one; any other path as it is", () => {
    expect(backupSeriesPath('kagane', '3fA9-x_Q')).toBe('/series/3fA9-x_Q')
    expect(backupSeriesPath('kagane', '/series/3fA9')).toBe('/series/3fA9')
    expect(backupSeriesPath('kagane', 'https://kagane.to/series/1')).toBe('https://kagane.to/series/1')
    expect(backupSeriesPath('kagane', '../admin')).toBe('../admin')
    expect(backupSeriesPath('madara', 'abc')).toBe('abc')
    expect(backupSeriesPath(undefined, 'abc')).toBe('abc')
  })
})
