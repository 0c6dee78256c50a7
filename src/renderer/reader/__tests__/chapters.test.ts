import { describe, expect, it } from 'vitest'
import type { ChapterItem, UpdateItem } from '../../../shared/sync-schemas'
import { byDay, nextAfter, unreadAbove } from '../chapters'

const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime()
const update = (number: number, seenAt: number): UpdateItem => ({
  site: 's',
  seriesId: 'x',
  title: 'X',
  number,
  label: `Chapter ${number}`,
  url: `https://s.example/x/${number}`,
  seenAt,
  releasedAt: 0,
})
const chapter = (number: number, vanished = false): ChapterItem => ({
  number,
  label: `Chapter ${number}`,
  url: `https://s.example/x/${number}`,
  releasedAt: 0,
  firstSeenAt: 0,
  vanished,
  read: false,
})

describe('Updates by day', () => {
  it('Today, Yesterday, then each earlier day by its date, in the order given', () => {
    const now = at(2026, 3, 10, 9)
    const groups = byDay(
      [update(5, at(2026, 3, 10, 1)), update(4, at(2026, 3, 9, 23)), update(3, at(2026, 3, 9, 0)), update(2, at(2026, 3, 2))],
      now,
    )
    expect(
      groups.map((g) => [g.day.startsWith('Today') || g.day.startsWith('Yesterday') ? g.day : 'date', g.items.map((u) => u.number)]),
    ).toEqual([
      ['Today', [5]],
      ['Yesterday', [4, 3]],
      ['date', [2]],
    ])
    expect(groups[2]!.day).toMatch(/2/)
  })
})

describe('a tap on a chapter', () => {
  const list = [chapter(12), chapter(11, true), chapter(10.5), chapter(10), chapter(9)]
  it('the next chapter is the lowest above it still on the Site', () => {
    expect(nextAfter(list, 9)).toMatchObject({ number: 10 })
    expect(nextAfter(list, 10.5)).toMatchObject({ number: 12, url: 'https://s.example/x/12' })
    expect(nextAfter(list, 12)).toBeNull()
  })
  it('what is left unread counts chapters, not the difference of numbers', () => {
    expect(unreadAbove(list, 9)).toBe(3)
    expect(unreadAbove(list, 12)).toBe(0)
  })
})
