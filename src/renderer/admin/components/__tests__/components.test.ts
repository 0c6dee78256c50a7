// @vitest-environment happy-dom
import { mount, RouterLinkStub } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import type { LaneView, SeriesRowView } from '../../../../shared/admin-api'
import CheckNow from '../CheckNow.vue'
import LaneRow from '../LaneRow.vue'
import PausePicker from '../PausePicker.vue'
import SeriesRow from '../SeriesRow.vue'
import ConfirmButton from '../ConfirmButton.vue'

const NOW = 1_800_000_000_000
const row = (over: Partial<SeriesRowView> = {}): SeriesRowView => ({
  site: 'mangadex',
  siteName: 'MangaDex',
  seriesId: 'x',
  title: 'Tower',
  url: 'https://mangadex.org/title/x',
  latestChapter: 12,
  latestChapterLabel: 'Ch. 12',
  latestChapterUrl: '',
  latestSource: 'check',
  latestChangedAt: 0,
  latestCheckedAt: NOW - 120_000,
  forcePollAt: 0,
  pending: false,
  finishedAt: 0,
  readerCount: 1,
  lastOutcome: 'chapter',
  lastError: '',
  lastOutcomeAt: NOW - 120_000,
  ...over,
})

const mountRow = (r: SeriesRowView, now = NOW, press = vi.fn(async () => undefined)) =>
  mount(SeriesRow, { props: { row: r, now, press }, global: { stubs: { RouterLink: RouterLinkStub } } })

describe('SeriesRow and Check now', () => {
  it('is an ARIA row holding its own Check now button', () => {
    const wrapper = mountRow(row())
    expect(wrapper.attributes('role')).toBe('row')
    expect(wrapper.find('button').text()).toBe('Check now')
    expect(wrapper.text()).toContain('checked 2 min ago')
  })

  it('hides Check now for a Series with no URL or no Reader', () => {
    expect(
      mountRow(row({ url: '' }))
        .find('button')
        .exists(),
    ).toBe(false)
    expect(
      mountRow(row({ readerCount: 0 }))
        .find('button')
        .exists(),
    ).toBe(false)
  })

  it('pending renders "check requested <age> ago", with no ETA, and ages while pending', async () => {
    const pending = row({ pending: true, forcePollAt: NOW - 30_000 })
    const wrapper = mountRow(pending)
    expect(wrapper.find('.pending').text()).toBe('check requested 30 s ago')
    expect(wrapper.find('.pending').classes()).toContain('attention')
    await wrapper.setProps({ now: NOW + 5 * 60_000 })
    expect(wrapper.find('.pending').text()).toBe('check requested 5 min ago')
    expect(wrapper.text()).not.toMatch(/next check|in \d/i)
  })

  it('no marker when nothing is pending', () => {
    expect(mountRow(row()).find('.pending').exists()).toBe(false)
  })

  it('pressing calls the press and is not confirm-gated', async () => {
    const press = vi.fn(async () => undefined)
    const wrapper = mount(CheckNow, { props: { row: row(), now: NOW, press } })
    await wrapper.find('button').trigger('click')
    expect(press).toHaveBeenCalledTimes(1)
  })

  it('the ember accent marks only a New Chapter (moved forward within a day)', () => {
    expect(
      mountRow(row({ latestChangedAt: NOW - 3_600_000 }))
        .find('.latest')
        .classes(),
    ).toContain('ember')
    expect(
      mountRow(row({ latestChangedAt: 0 }))
        .find('.latest')
        .classes(),
    ).not.toContain('ember')
    expect(
      mountRow(row({ latestChangedAt: NOW - 3 * 86_400_000 }))
        .find('.latest')
        .classes(),
    ).not.toContain('ember')
  })

  it('never checked says so', () => {
    expect(mountRow(row({ latestCheckedAt: 0 })).text()).toContain('never checked')
  })
})

describe('PausePicker', () => {
  it('offers exactly 1h, 6h and 24h and pauses with the chosen one', async () => {
    const pause = vi.fn(async () => undefined)
    const wrapper = mount(PausePicker, { props: { site: 'a', name: 'Site A', paused: false, pause, resume: vi.fn() } })
    expect(wrapper.findAll('option').map((o) => o.text())).toEqual(['1h', '6h', '24h'])
    await wrapper.find('select').setValue('6h')
    await wrapper.find('button').trigger('click')
    expect(pause).toHaveBeenCalledWith('6h')
  })

  it('a paused Lane offers Resume instead', async () => {
    const resume = vi.fn(async () => undefined)
    const wrapper = mount(PausePicker, { props: { site: 'a', name: 'Site A', paused: true, pause: vi.fn(), resume } })
    expect(wrapper.find('select').exists()).toBe(false)
    await wrapper.find('button').trigger('click')
    expect(wrapper.find('button').text()).toBe('Resume')
    expect(resume).toHaveBeenCalled()
  })
})

describe('LaneRow', () => {
  const lane = (over: Partial<LaneView> = {}): LaneView => ({
    site: 'a',
    name: 'Site A',
    fetcher: 'http',
    pausedUntil: 0,
    refuseUntil: 0,
    pace: { restMs: 3_600_000, maxPassMs: 300_000, maxGapMs: 300_000, idleRequeryMs: 30_000 },
    latestPass: {
      id: 1,
      startedAt: NOW - 20_000,
      endedAt: NOW - 10_000,
      skip: '',
      due: 5,
      gap: 12_000,
      clamped: false,
      checked: 5,
      refused: 1,
      unreachable: 0,
      noChapter: 1,
      unfetchable: 0,
      errors: 1,
      success: 2,
    },
    ...over,
  })
  const mountLane = (l: LaneView) =>
    mount(LaneRow, { props: { lane: l, now: NOW, pause: vi.fn(), resume: vi.fn() }, attachTo: document.createElement('tbody') })

  it('is a table row naming the Site, with the figures and the derived success', () => {
    const wrapper = mountLane(lane())
    expect(wrapper.element.tagName).toBe('TR')
    expect(wrapper.find('th').text()).toContain('Site A')
    expect(wrapper.text()).toContain('working: checked 5 of 5 due')
    expect(wrapper.find('.ok').text()).toBe('2')
  })

  it('renders the stall rule from a pass row', () => {
    const stalled = lane({ latestPass: { ...lane().latestPass!, checked: 0, refused: 0, noChapter: 0, errors: 0, success: 0 } })
    const wrapper = mountLane(stalled)
    expect(wrapper.attributes('data-state')).toBe('stalled')
    expect(wrapper.find('.state').classes()).toContain('attention')
  })

  it('a paused Lane shows until when, in the attention accent, with Resume', () => {
    const wrapper = mountLane(lane({ pausedUntil: NOW + 3_600_000 }))
    expect(wrapper.find('.state').text()).toMatch(/^paused until \d\d:\d\d/)
    expect(wrapper.find('.state').classes()).toContain('attention')
    expect(wrapper.findAll('button').map((b) => b.text())).toEqual(['Resume'])
  })

  it('a skipped pass shows its carried figures marked and no success', () => {
    const wrapper = mountLane(
      lane({ latestPass: { ...lane().latestPass!, skip: 'no-fetcher', refused: 0, noChapter: 0, errors: 0, success: 0 } }),
    )
    expect(wrapper.text()).toContain('declined: needs a browser and none is configured')
    expect(wrapper.find('.ok').text()).toBe('—')
  })
})

describe('ConfirmButton', () => {
  it('asks before a destructive action, and Cancel does nothing', async () => {
    const action = vi.fn(async () => undefined)
    const wrapper = mount(ConfirmButton, { props: { label: 'Remove', question: 'Remove Aiko?', action } })
    await wrapper.find('button').trigger('click')
    expect(action).not.toHaveBeenCalled()
    expect(wrapper.text()).toContain('Remove Aiko?')
    await wrapper.findAll('button')[1]!.trigger('click')
    expect(action).not.toHaveBeenCalled()
    await wrapper.find('button').trigger('click')
    await wrapper.findAll('button')[0]!.trigger('click')
    expect(action).toHaveBeenCalledTimes(1)
  })
})
