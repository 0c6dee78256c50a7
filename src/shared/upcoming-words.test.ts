import { describe, expect, it } from 'vitest'
import { dayWords, expectedWords, upcomingByDay } from './upcoming-words'

// Local times: the words are the viewer's.
const at = (day: number, hour: number, minute = 0) => new Date(2026, 0, day, hour, minute).getTime()
const monday = at(5, 12)

describe('Upcoming in words', () => {
  it('names today, tomorrow and the weekdays of the week ahead', () => {
    expect(dayWords(at(5, 20), monday)).toBe('today')
    expect(dayWords(at(6, 9), monday)).toBe('tomorrow')
    expect(dayWords(at(8, 9), monday)).toBe('Thursday')
    expect(expectedWords(at(6, 15), monday)).toBe('expected tomorrow ~15:00')
    expect(expectedWords(at(8, 15, 30), monday)).toBe('expected Thursday ~15:30')
  })

  it('groups the next seven days by day in time order, and leaves out the unknown, the long past and the far', () => {
    const items = [
      { id: 'far', expectedAt: at(13, 9) },
      { id: 'thu-late', expectedAt: at(8, 22) },
      { id: 'none', expectedAt: null },
      { id: 'thu-early', expectedAt: at(8, 7) },
      { id: 'just-past', expectedAt: at(5, 10) },
      { id: 'long-past', expectedAt: at(4, 9) },
    ]
    expect(upcomingByDay(items, monday).map((g) => [g.day, g.items.map((i) => i.id)])).toEqual([
      ['today', ['just-past']],
      ['Thursday', ['thu-early', 'thu-late']],
    ])
  })
})
