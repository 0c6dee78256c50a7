// @vitest-environment happy-dom
import { flushPromises, mount, RouterLinkStub } from '@vue/test-utils'
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
  waiting: { kind: 'next-check', at: NOW + 58 * 60_000 },
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
    // The core says a pending Series is due (waiting for its Lane's turn), never when.
    const pending = row({ pending: true, forcePollAt: NOW - 30_000, waiting: { kind: 'due' } })
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

  it('a failed check says why, never "checked … ago"; an unknown Latest Chapter says why', () => {
    const failed = mountRow(
      row({ latestChapter: null, lastOutcome: 'error', lastError: 'HTTP 503', lastOutcomeAt: NOW - 20_000, latestCheckedAt: NOW - 21_000 }),
    )
    expect(failed.find('[data-last-check]').text()).toBe('last check 20 s ago: failed: HTTP 503')
    expect(failed.find('[data-last-check]').classes()).toContain('attention')
    expect(failed.text()).not.toMatch(/checked \d+ s ago/)
    expect(failed.find('[data-latest]').text()).toContain('the check failed')
  })

  it('a Check now on a refusing Site says the Site refuses and the check will wait, beside the marker', () => {
    const refusing = row({ pending: true, forcePollAt: NOW - 31_000, waiting: { kind: 'refusing', until: NOW + 15 * 60_000 } })
    const wrapper = mountRow(refusing)
    expect(wrapper.find('.pending').text()).toBe('check requested 31 s ago')
    expect(wrapper.find('[data-waiting]').text()).toMatch(/^Site refusing until \d\d:\d\d — your check will wait$/)
    expect(wrapper.find('[data-waiting]').classes()).toContain('attention')
  })

  it('links to its detail page, and to the Series on its Site', () => {
    expect(mountRow(row()).findComponent(RouterLinkStub).props('to')).toBe('/series/mangadex/x')
    const link = mountRow(row()).find('a.on-site')
    expect(link.attributes('href')).toBe('https://mangadex.org/title/x')
    expect(link.attributes('rel')).toContain('noopener')
  })

  it('Check now keeps focus while it works: it is never disabled under the pointer', async () => {
    let finish: () => void = () => undefined
    const press = vi.fn(() => new Promise<void>((done) => (finish = done)))
    const wrapper = mount(CheckNow, { props: { row: row(), now: NOW, press }, attachTo: document.body })
    const button = wrapper.find('button')
    ;(button.element as HTMLButtonElement).focus()
    await button.trigger('click')
    expect(button.attributes('disabled')).toBeUndefined()
    expect(button.attributes('aria-disabled')).toBe('true')
    await button.trigger('click')
    expect(press).toHaveBeenCalledTimes(1)
    finish()
    await flushPromises()
    expect(document.activeElement).toBe(button.element)
    wrapper.unmount()
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

  it('after Pause the Resume button takes focus, and after Resume the Pause button', async () => {
    const wrapper = mount(PausePicker, {
      props: { site: 'a', name: 'Site A', paused: false, pause: vi.fn(async () => undefined), resume: vi.fn(async () => undefined) },
      attachTo: document.body,
    })
    await wrapper.find('button').trigger('click')
    await wrapper.setProps({ paused: true })
    await flushPromises()
    expect((document.activeElement as HTMLElement).textContent?.trim()).toBe('Resume')
    await wrapper.find('button').trigger('click')
    await wrapper.setProps({ paused: false })
    await flushPromises()
    expect((document.activeElement as HTMLElement).textContent?.trim()).toBe('Pause')
    wrapper.unmount()
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
    mount(LaneRow, { props: { lane: l, now: NOW, columns, pause: vi.fn(), resume: vi.fn() }, attachTo: document.createElement('tbody') })
  const columns = [
    { key: 'refused' as const, label: 'Refused' },
    { key: 'errors' as const, label: 'Errors' },
  ]

  it('is a table row naming the Site, with the figures and the derived success', () => {
    const wrapper = mountLane(lane())
    expect(wrapper.element.tagName).toBe('TR')
    expect(wrapper.find('th').text()).toContain('Site A')
    expect(wrapper.text()).toContain('working: checked 5 of 5 due')
    expect(wrapper.find('.ok').text()).toBe('2')
  })

  it('a Site whose Lane reads its updates page says when it read it and what it showed, or why it fell back', () => {
    const reading = { state: 'reading' as const, reason: '', lastReadAt: NOW - 5 * 60_000, entries: 20, nextReadAt: NOW + 25 * 60_000 }
    expect(
      mountLane(lane({ feed: reading }))
        .find('[data-feed]')
        .text(),
    ).toBe('Updates page read 5 min ago: 20 entries; next read in about 25 min')
    const broken = mountLane(lane({ feed: { ...reading, state: 'broken', reason: 'HTTP 503' } })).find('[data-feed]')
    expect(broken.text()).toContain('fell back: HTTP 503 — each Series keeps its own cadence')
    expect(broken.classes()).toContain('attention')
    expect(mountLane(lane()).find('[data-feed]').exists()).toBe(false)
  })

  it('a derived Site says it is untried, under its name; another Site says nothing of it', () => {
    const words = "untried — derived from the extension's selectors"
    expect(
      mountLane(lane({ untried: words }))
        .find('th [data-untried]')
        .text(),
    ).toBe(words)
    expect(mountLane(lane()).find('[data-untried]').exists()).toBe(false)
  })

  it('renders the stall rule from a pass row', () => {
    const stalled = lane({ latestPass: { ...lane().latestPass!, checked: 0, refused: 0, noChapter: 0, errors: 0, success: 0 } })
    const wrapper = mountLane(stalled)
    expect(wrapper.attributes('data-state')).toBe('stalled')
    expect(wrapper.find('.state .words').classes()).toContain('attention')
  })

  it('a paused Lane shows until when, in the attention accent, with Resume', () => {
    const wrapper = mountLane(lane({ pausedUntil: NOW + 3_600_000 }))
    expect(wrapper.find('.state').text()).toMatch(/^paused until \d\d:\d\d/)
    expect(wrapper.find('.state .words').classes()).toContain('attention')
    expect(wrapper.findAll('button').map((b) => b.text())).toEqual(['Resume'])
  })

  it('shows only the failure columns it is given, and its recent passes in a sentence', () => {
    const recent = [lane().latestPass!, { ...lane().latestPass!, id: 2, refused: 0, noChapter: 0, errors: 0, success: 5 }]
    const failures = [{ seriesId: 'x', title: 'Tower', outcome: 'error' as const, reason: 'HTTP 503', at: NOW - 60_000 }]
    const wrapper = mountLane(lane({ recent, recentFailures: failures }))
    expect(wrapper.findAll('[data-column]').map((c) => c.attributes('data-column'))).toEqual(['refused', 'errors'])
    expect(wrapper.find('[data-history]').text()).toBe('Last 2 passes: 1 ok, 1 refused — latest: HTTP 503 on “Tower” 1 min ago.')
  })

  it('a skipped pass shows its carried figures marked and no success', () => {
    const wrapper = mountLane(
      lane({ latestPass: { ...lane().latestPass!, skip: 'no-fetcher', refused: 0, noChapter: 0, errors: 0, success: 0 } }),
    )
    expect(wrapper.text()).toContain('not checking: needs a browser and none is configured')
    expect(wrapper.find('.ok').text()).toBe('—')
  })
})

describe('ConfirmButton', () => {
  it('asking moves focus to Cancel; Escape cancels and puts focus back on the button', async () => {
    const action = vi.fn(async () => undefined)
    const wrapper = mount(ConfirmButton, { props: { label: 'Remove', question: 'Remove Aiko?', action }, attachTo: document.body })
    await wrapper.find('button').trigger('click')
    await flushPromises()
    expect((document.activeElement as HTMLElement).textContent).toBe('Cancel')
    await wrapper.find('[role="alertdialog"]').trigger('keydown', { key: 'Escape' })
    await flushPromises()
    expect(wrapper.find('[role="alertdialog"]').exists()).toBe(false)
    expect(document.activeElement).toBe(wrapper.find('button').element)
    expect(action).not.toHaveBeenCalled()
    wrapper.unmount()
  })

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
