import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pino } from 'pino'
import { applyLogLevel, createLog, LOG_FILE, logProblem, logToDirectory, plainLine, scrub, silentLog, troubleOver, warnOnce } from './log'
import { makeReadOnly } from './testing/faults'
import { describe, expect, it } from './testing/fixtures'

const everything = (dir: string) =>
  readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('')

describe('secrets never reach a log line', () => {
  it.each([
    [
      'the admin URL',
      'admin: http://127.0.0.1:4711/admin/?token=s3cr3t-admin-0123456789',
      'admin: http://127.0.0.1:4711/admin/?token=[redacted]',
    ],
    [
      'the one-time sign-in links',
      'sign in: http://127.0.0.1:4712/admin/?code=AbC_d-1 and http://192.168.1.2:4711/#code=XyZ',
      'sign in: http://127.0.0.1:4712/admin/?code=[redacted] and http://192.168.1.2:4711/#code=[redacted]',
    ],
    ['a second query parameter', '/x?a=1&token=abc&b=2', '/x?a=1&token=[redacted]&b=2'],
    ['a bearer token', 'authorization: Bearer AbC.def-123', 'authorization: Bearer [redacted]'],
    ['our session cookie', 'cookie: mb_admin=deadbeef; other=1', 'cookie: mb_admin=[redacted]; other=1'],
    ['a token field in JSON', '{"token":"t0k\\"en","name":"aiko"}', '{"token":"[redacted]","name":"aiko"}'],
    ['nothing secret', 'lane: checked 12 Series', 'lane: checked 12 Series'],
  ])('%s', (_name, line, expected) => {
    expect(scrub(line)).toBe(expected)
  })

  it('fields, messages and errors: the log file holds none of them, and still says what happened', ({ dataDir: dir, defer }) => {
    const log = createLog('debug', { stderr: false })
    const stop = logToDirectory(log, dir)
    defer(stop)
    const secrets = ['reader-token-AAAA1111', 'admin-token-BBBB2222', 'cookie-value-CCCC3333', 'bearer-DDDD4444']
    log.info({ token: secrets[0], headers: { authorization: `Bearer ${secrets[3]}`, cookie: `mb_admin=${secrets[2]}` } }, 'reader: added')
    log.info(
      { adminUrl: `http://127.0.0.1:1/admin/?token=${secrets[1]}` },
      `headless: admin at http://127.0.0.1:1/admin/?token=${secrets[1]}`,
    )
    log.error({ err: new Error(`request to /admin/?token=${secrets[1]} failed with Bearer ${secrets[0]}`) }, 'http: request failed')
    log.debug({ reader: { token: secrets[0] } }, 'debug line')
    const text = everything(dir)
    for (const secret of secrets) expect(text).not.toContain(secret)
    expect(text.split('\n').filter(Boolean)).toHaveLength(4)
    expect(text).toContain('"msg":"http: request failed"')
    expect(text).toContain('[redacted]')
  })
})

describe('the log file', () => {
  it('rotates by size, keeping a bounded number of files, none over the size', ({ dataDir: dir, defer }) => {
    const log = createLog('info', { stderr: false })
    defer(logToDirectory(log, dir, { maxBytes: 4_096, keep: 3 }))
    for (let i = 0; i < 400; i++) log.info({ i }, `line ${i} ${'x'.repeat(40)}`)
    const files = readdirSync(dir).sort()
    expect(files).toEqual([LOG_FILE, 'manga-bookmark.1.log', 'manga-bookmark.2.log', 'manga-bookmark.3.log'].sort())
    for (const f of files) expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(4_096)
    // The newest line is in the current file; the oldest are gone.
    expect(readFileSync(join(dir, LOG_FILE), 'utf8')).toContain('"i":399')
    expect(everything(dir)).not.toContain('"i":0,')
  })

  it('a file that cannot be written drops its lines and never throws', ({ dataDir: dir, defer }) => {
    const log = createLog('info', { stderr: false })
    // A directory where the file should be: every open fails.
    defer(logToDirectory(log, join(dir, LOG_FILE, 'inside', '..'), { maxBytes: 1_000 }))
    expect(() => log.info('still logging')).not.toThrow()
  })
})

describe('the log level', () => {
  it('is the owner’s setting, unless MB_LOG_LEVEL is set', () => {
    const log = createLog('info', { stderr: false })
    expect(applyLogLevel(log, 'debug', {})).toBe('debug')
    expect(log.isLevelEnabled('debug')).toBe(true)
    expect(applyLogLevel(log, 'warn', { MB_LOG_LEVEL: 'debug' })).toBe('debug')
  })

  it('leaves a logger the shell did not make alone (a test’s silent one stays silent)', () => {
    expect(applyLogLevel(silentLog, 'debug', {})).toBe('silent')
  })
})

describe('plain lines for the terminal', () => {
  it('a warning or an error is one sentence; an error’s own message is added once', () => {
    expect(plainLine('{"level":40,"msg":"sites.json: bad"}')).toBe('manga-bookmark: warning: sites.json: bad\n')
    expect(plainLine('{"level":50,"msg":"app: stop failed","err":{"message":"EIO"}}')).toBe(
      'manga-bookmark: error: app: stop failed (EIO)\n',
    )
    expect(plainLine('{"level":50,"msg":"failed: EIO","err":{"message":"EIO"}}')).toBe('manga-bookmark: error: failed: EIO\n')
    expect(plainLine('not json')).toBe('not json')
  })
})

describe('a log file that cannot be written', () => {
  it('is said (logProblem, which the Overview shows), and no longer once lines are written again', async ({
    skip,
    dataDir: dir,
    defer,
  }) => {
    const log = createLog('info', { stderr: false })
    writeFileSync(join(dir, LOG_FILE), '')
    const readOnly = makeReadOnly(join(dir, LOG_FILE))
    if ('skip' in readOnly) return skip(readOnly.skip)
    let undone = false
    defer(() => undone || readOnly.undo())
    const stop = logToDirectory(log, dir)
    defer(stop)
    log.warn('a line the disk will not take')
    expect(logProblem(log)).toMatch(
      new RegExp(`^cannot write the log ${join(dir, LOG_FILE)}: (EPERM|EACCES); its lines are lost until it can$`),
    )
    readOnly.undo()
    undone = true
    log.warn('a line it takes')
    expect(logProblem(log)).toBeNull()
    expect(readFileSync(join(dir, LOG_FILE), 'utf8')).toContain('a line it takes')
    expect(logProblem(silentLog)).toBeNull()
  })
})

describe('a warning names what it is about, once per episode', () => {
  it('names the Lane, the Reader and the channel its fields give and its words do not', () => {
    const line = (fields: object) => plainLine(JSON.stringify({ level: 40, ...fields })).trim()
    expect(line({ msg: 'notify: a message was not delivered', reader: 'Aiko', channel: 'ntfy' })).toBe(
      'manga-bookmark: warning: notify: a message was not delivered [Reader Aiko; channel ntfy]',
    )
    expect(line({ msg: 'lane: pass failed', site: 'fixture-madara' })).toBe(
      'manga-bookmark: warning: lane: pass failed [Lane fixture-madara]',
    )
    expect(line({ msg: 'lane fixture-madara: refused', site: 'fixture-madara' })).toBe(
      'manga-bookmark: warning: lane fixture-madara: refused',
    )
    expect(line({ msg: 'lanes: started without their rows', sites: ['a', 'b'] })).toBe(
      'manga-bookmark: warning: lanes: started without their rows [Lanes a, b]',
    )
  })

  it('warns once until the trouble is over, then again at the next episode', () => {
    const lines: Array<{ level: number; msg: string }> = []
    const log = pino({ level: 'debug' }, { write: (l: string) => void lines.push(JSON.parse(l) as { level: number; msg: string }) })
    expect([warnOnce(log, 'k', {}, 'refused'), warnOnce(log, 'k', {}, 'refused'), warnOnce(log, 'other', {}, 'other')]).toEqual([
      true,
      false,
      true,
    ])
    expect(troubleOver(log, 'k', {}, 'answers again')).toBe(true)
    expect(troubleOver(log, 'k', {}, 'answers again')).toBe(false)
    expect(warnOnce(log, 'k', {}, 'refused')).toBe(true)
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, 'refused'],
      [20, 'refused'],
      [40, 'other'],
      [30, 'answers again'],
      [40, 'refused'],
    ])
  })
})
