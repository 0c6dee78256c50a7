/**
 * `npm run simulate -- --days N --series N --sites N --seed N [--faults none|some|many]
 * [--actions none|some|many] [--cadence fixed|adaptive] [--out FILE] [--events FILE] [--report-only]`: runs the simulation, prints a
 * summary and, with `--out`, writes the whole report as JSON (`--events`: the event log, one JSON object a line). It exits 1 when an
 * invariant was violated or an error went unexplained, unless `--report-only` (then 0: a look at the figures). `--check` is
 * accepted for old scripts and changes nothing: checking is the default.
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { exitCodeFor, formatSummary } from './report'
import { LEVELS, SIM_START, simulate, type Level } from './simulate'

function main(): void {
  const { values } = parseArgs({
    options: {
      days: { type: 'string', default: '3' },
      series: { type: 'string', default: '40' },
      sites: { type: 'string', default: '4' },
      seed: { type: 'string', default: '1' },
      faults: { type: 'string', default: 'some' },
      actions: { type: 'string', default: 'some' },
      cadence: { type: 'string', default: 'fixed' },
      out: { type: 'string' },
      events: { type: 'string' },
      check: { type: 'boolean', default: false },
      'report-only': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  })
  if (values.help) {
    console.log(
      'npm run simulate -- --days N --series N --sites N --seed N [--faults none|some|many] [--actions none|some|many] [--cadence fixed|adaptive] [--out FILE] [--events FILE] [--report-only]',
    )
    return
  }
  const count = (name: 'days' | 'series' | 'sites' | 'seed', min: number, max: number): number => {
    const raw = values[name]!
    const n = Number(raw)
    if (!/^\d+$/.test(raw) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max} (got "${raw}")`)
    return n
  }
  const level = (name: 'faults' | 'actions'): Level => {
    const raw = values[name]!
    if (!(LEVELS as readonly string[]).includes(raw)) throw new Error(`--${name} must be one of ${LEVELS.join(', ')} (got "${raw}")`)
    return raw as Level
  }
  const cadence = (): 'fixed' | 'adaptive' => {
    const raw = values.cadence!
    if (raw !== 'fixed' && raw !== 'adaptive') throw new Error(`--cadence must be fixed or adaptive (got "${raw}")`)
    return raw
  }
  const options = {
    days: count('days', 1, 365),
    series: count('series', 1, 20_000),
    sites: count('sites', 1, 60),
    seed: count('seed', 0, 2 ** 32 - 1),
    faults: level('faults'),
    actions: level('actions'),
    cadence: cadence(),
  }
  const eventsFile = values.events
  simulate({
    ...options,
    onDay: (day) => process.stderr.write(`simulate: day ${day}/${options.days}\n`),
    onEvents: eventsFile ? (events) => writeLines(eventsFile, events) : undefined,
  }).then(
    (report) => {
      if (values.out) writeFileSync(values.out, `${JSON.stringify(report, null, 1)}\n`)
      console.log(formatSummary(report, SIM_START))
      if (values.out) console.log(`report: ${values.out}`)
      process.exitCode = exitCodeFor(report, values['report-only'])
    },
    (error: unknown) => {
      console.error(`simulate: ${(error as Error).stack ?? String(error)}`)
      process.exitCode = 2
    },
  )
}

/** One JSON object a line, written in chunks: a month's log is over a million events. */
function writeLines(file: string, items: readonly unknown[]): void {
  const fd = openSync(file, 'w')
  try {
    for (let i = 0; i < items.length; i += 10_000)
      writeSync(
        fd,
        `${items
          .slice(i, i + 10_000)
          .map((e) => JSON.stringify(e))
          .join('\n')}\n`,
      )
  } finally {
    closeSync(fd)
  }
}

try {
  main()
} catch (error) {
  console.error(`simulate: ${(error as Error).message}`)
  process.exitCode = 2
}
