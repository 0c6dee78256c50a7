// @ts-check
/**
 * Equivalent mutants: changes no input can observe, which `npm run test:mutation` does not run
 * (docs/mutation.md#equivalent-mutants, ADR 0105). Each entry names its file, the source text of the expression
 * or statement whose mutants are all equivalent (white space read as one space; `within`, a larger text holding
 * it once, when the text occurs more than once), each of its mutants as `Mutator: replacement`, and why no input
 * can observe them. `scripts/stryker-equivalents.test.ts` checks that the list ignores exactly these mutants.
 * Only true equivalents, and only where every mutant of the node is one: a mutant a test could kill but none
 * does yet stays a survivor, counted.
 * @type {Array<{ file: string, code: string, within?: string, mutants: string[], why: string }>}
 */
export const equivalentMutants = [
  // The Lanes
  {
    file: 'src/main/lanes/pass.ts',
    code: 'held === 0',
    mutants: ['ConditionalExpression: true', 'ConditionalExpression: false', 'EqualityOperator: held !== 0'],
    why: 'chooses which of two log lines an unwritten pass row writes (loud once, then quiet); the row is held either way',
  },
  {
    file: 'src/main/lanes/pass.ts',
    code: 'lane ?? (await laneRow(db, site.key).catch(() => undefined))',
    mutants: ['LogicalOperator: lane && (await laneRow(db, site.key).catch(() => undefined))'],
    why: 'the sleep reads the Lane row only after a pause or a refusal, whose exits always pass the row they read (the read stays: the simulation faults queries by count)',
  },
  {
    file: 'src/main/lanes/pass.ts',
    code: 'skip',
    within: "if (skip) log.debug({ site: site.key, skip, sleepMs }, 'lane: pass skipped')",
    mutants: ['ConditionalExpression: true', 'ConditionalExpression: false'],
    why: 'guards a log line only',
  },
  {
    file: 'src/main/lanes/pass.ts',
    code: 'cutShort: true',
    within: "this.write('', { ...tally.figures(), cutShort: true }, undefined, tally.newChapters)",
    mutants: ['BooleanLiteral: false'],
    why: "a stopped pass's sleep is never slept: the Lane's loop ends on the same abort",
  },
  {
    file: 'src/main/lanes/pass.ts',
    code: 'true',
    within:
      "if (report.outcome === 'refused') { counts.refused++ await backOff(deps, tally, report) tally.stoppedEarly = true return 'end' }",
    mutants: ['BooleanLiteral: false'],
    why: 'a refusal answers a request, so the Lane goes straight on whether or not the pass says it stopped early',
  },
  {
    file: 'src/main/lanes/pass.ts',
    code: 'tally.stoppedEarly = true',
    within: `if (report.outcome === 'unreachable') { // Not counted in \`checked\`: the browser, not the Site, failed. The pass returns with an empty skip. counts.unreachable++ health.markDown() warnOnce( log, \`browser:\${site.key}\`, { site: site.key, reason: report.reason }, \`lane \${site.name}: the browser that reads this Site cannot be reached (\${report.reason || 'no reason given'}); its checks wait for it\`, ) tally.stoppedEarly = true return 'end' }`,
    mutants: ['BooleanLiteral: false'],
    why: 'a check that reached the fetcher has fetched, so after an unreachable browser the Lane goes straight on either way',
  },
  {
    file: 'src/main/lanes/lane.ts',
    code: "{ shared.options.log.error({ site: site.key, err: error }, 'lane: cannot read the last check stamp') }",
    mutants: ['BlockStatement: {}'],
    why: 'the catch holds a log line only: an unreadable stamp leaves the pacer unseeded either way',
  },
  {
    file: 'src/main/lanes/lane.ts',
    code: '() => unwritten.clear()',
    mutants: ['ArrowFunction: () => undefined'],
    why: 'the held rows are written at the stop, after which nothing reads the holder again (each run of a Lane makes its own)',
  },
  {
    file: 'src/main/lanes/lane.ts',
    code: "(error: unknown) => log.error({ site: site.key, err: error, lost: unwritten.rows.length }, 'lane: held pass rows could not be written at stop')",
    mutants: ['ArrowFunction: () => undefined', 'ObjectLiteral: {}', 'StringLiteral: ""'],
    why: 'a failure to write the held rows at the stop is a log line only: the rejection is handled either way',
  },
  ...[
    "'Series no Reader has held for a long time'",
    "'Sightings judged long ago'",
    "'Sightings no check judged'",
    "'bookmark removals every Reader has long synced'",
    "'statistics'",
  ].map((code) => ({
    file: 'src/main/lanes/lane.ts',
    code,
    mutants: ['StringLiteral: ""'],
    why: "a retention step's name is read only by its log lines",
  })),
  {
    file: 'src/main/lanes/lane.ts',
    code: 'pruned',
    within: 'if (pruned) log.info({ pruned }, `lanes: pruned ${what}`)',
    mutants: ['ConditionalExpression: true', 'ConditionalExpression: false'],
    why: 'guards a log line only',
  },
  // The store
  {
    file: 'src/main/store/series-list.ts',
    code: 'stale <= STALE_SORTED_UP_TO && !search',
    mutants: [
      'ConditionalExpression: true',
      'ConditionalExpression: false',
      'ConditionalExpression: true',
      'LogicalOperator: stale <= STALE_SORTED_UP_TO || !search',
      'EqualityOperator: stale < STALE_SORTED_UP_TO',
      'EqualityOperator: stale > STALE_SORTED_UP_TO',
      'BooleanLiteral: search',
    ],
    why: 'chooses between the stale ranges per Site and the stale term, which select the same rows (docs/adr/0051-the-owners-list-pages-by-key.md); the choice is cost only',
  },
  {
    file: 'src/main/store/series-list.ts',
    code: "fresh <= STALE_SORTED_UP_TO || query.sort === 'changed'",
    mutants: [
      'ConditionalExpression: true',
      'ConditionalExpression: false',
      'ConditionalExpression: false',
      'ConditionalExpression: false',
      "LogicalOperator: fresh <= STALE_SORTED_UP_TO && query.sort === 'changed'",
      'EqualityOperator: fresh < STALE_SORTED_UP_TO',
      'EqualityOperator: fresh > STALE_SORTED_UP_TO',
      "EqualityOperator: query.sort !== 'changed'",
      'StringLiteral: ""',
    ],
    why: "chooses between the latest change's index and the order's, which hold the same rows; the choice is cost only",
  },
  {
    file: 'src/main/store/series-list.ts',
    code: "index === 'series_site_checked'",
    mutants: [
      'ConditionalExpression: true',
      'ConditionalExpression: false',
      "EqualityOperator: index !== 'series_site_checked'",
      'StringLiteral: ""',
    ],
    why: 'whether the page names its index or lets SQLite read the stale ranges through the one each names: the same rows either way (each survived a run that tried them)',
  },
  {
    file: 'src/main/store/series-list.ts',
    code: '`INDEXED BY ${sql.raw(index)}`',
    mutants: ['StringLiteral: ``'],
    why: 'INDEXED BY only names the index SQLite must read through: without it the same rows are read',
  },
  ...[
    'unforcedSeries(db, site, cutoffs, left, false, sql`AND EXISTS (${heldByOthers(over)})`)',
    'unforcedSeries(db, site, cutoffs, more, false, sql`AND NOT EXISTS (${heldByOthers(over)})`)',
  ].map((within) => ({
    file: 'src/main/store/due.ts',
    code: 'false',
    within,
    mutants: ['BooleanLiteral: true'],
    why: "a fair share's reads walking the order's index instead of sorting the due range: the same rows, another cost",
  })),
  {
    file: 'src/main/store/backups.ts',
    code: '{ force: true }',
    within: 'rmSync(b.file, { force: true })',
    mutants: ['ObjectLiteral: {}', 'BooleanLiteral: false'],
    why: 'the file was just listed: force only spares an error for a backup removed by someone else between the two calls',
  },
  {
    file: 'src/main/store/backups.ts',
    code: '{ force: true }',
    within: 'rmSync(join(dir, name), { force: true })',
    mutants: ['ObjectLiteral: {}', 'BooleanLiteral: false'],
    why: 'the file was just listed: force only spares an error for a half-made copy removed by someone else between the two calls',
  },
  {
    file: 'src/main/store/backups.ts',
    code: 'fileMustExist: true',
    within:
      'new BetterSqlite3(partial, { fileMustExist: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}), })',
    mutants: ['BooleanLiteral: false'],
    why: 'the backup has just made the file, so opening it never creates one',
  },
  {
    file: 'src/main/store/backups.ts',
    code: '[]',
    within: 'catch { return [] }',
    mutants: ['ArrayDeclaration: ["Stryker was here"]'],
    why: 'an unreadable folder lists nothing; a name that is no half-made copy is skipped by the caller all the same',
  },
  {
    file: 'src/main/store/storage.ts',
    code: "''",
    within: "/^\\s*(\\w+)/.exec(sql)?.[1]?.toLowerCase() ?? ''",
    mutants: ['StringLiteral: "Stryker was here!"'],
    why: "a statement whose first word is not found: any text that is not 'commit' or 'rollback' is read the same",
  },
  {
    file: 'src/main/store/storage.ts',
    code: '{ force: true }',
    within: 'rmSync(probeFile, { force: true })',
    mutants: ['ObjectLiteral: {}', 'BooleanLiteral: false'],
    why: 'the probe was just made: force matters only for a file that is not there',
  },
  {
    file: 'src/main/store/storage.ts',
    code: '{ return null }',
    within: 'try { const s = statSync(file) return { dev: s.dev, ino: s.ino } } catch { return null }',
    mutants: ['BlockStatement: {}'],
    why: 'a file that cannot be stated has no identity: undefined and null both read as "no file" to the callers',
  },
  {
    file: 'src/main/store/private-files.ts',
    code: 'catch { return }',
    mutants: ['BlockStatement: {}'],
    why: 'without the return, a file that cannot be read has no mode (undefined & 0o077 is 0), and nothing is changed all the same',
  },
  {
    file: 'src/main/store/integrity.ts',
    code: '/^SQLITE_(CORRUPT|NOTADB)/',
    mutants: ['Regex: /SQLITE_(CORRUPT|NOTADB)/'],
    why: "SQLite's codes all begin with SQLITE_, so where the match may start changes nothing",
  },
  // The use-cases
  ...probeParts(),
  {
    file: 'src/main/use-cases/library-import.ts',
    code: 'registry.get(m.site)?.name',
    mutants: ['OptionalChaining: registry.get(m.site).name'],
    why: 'a plan uses only mappings to Sites of this registry, which only grows: the Site is always found',
  },
  {
    file: 'src/main/use-cases/library-import.ts',
    code: "''",
    within: "deps.registry.get(input.site ?? '')",
    mutants: ['StringLiteral: "Stryker was here!"'],
    why: 'an empty key and any text a mutant puts here both name no Site',
  },
  {
    file: 'src/main/use-cases/site-proposals.ts',
    code: "fetcher: 'browser'",
    within: "{ ...probe, fetcher: 'browser' }",
    mutants: ['StringLiteral: ""'],
    why: 'a fetcher reads only the host pin of the Site it is given; the kind is for the type',
  },
  {
    file: 'src/main/use-cases/acquire.ts',
    code: "(error: unknown) => { deps.log.error({ site: site.key, series: seriesId, err: error }, 'acquire: failed') return undefined }",
    mutants: ['BlockStatement: {}'],
    why: 'an emptied block settles with undefined too; what the block adds is its log line',
  },
  {
    file: 'src/main/use-cases/acquire.ts',
    code: '[]',
    within: 'windows.get(readerId) ?? []',
    mutants: ['ArrayDeclaration: ["Stryker was here"]'],
    why: 'a Reader with no window yet: a non-number in it is filtered out (now − it is NaN, never under an hour)',
  },
  // The Sites
  {
    file: 'src/main/sites/dates.ts',
    code: 'text.toUpperCase()',
    mutants: ['MethodExpression: text.toLowerCase()'],
    why: "the text is lower case already, and V8's Date.parse reads a lowercase t and z too; upper case is the form ECMAScript specifies",
  },
  {
    file: 'src/main/sites/families/selectors.ts',
    code: "'attr:'",
    within: "selectors.number.startsWith('attr:')",
    mutants: ['StringLiteral: ""'],
    why: "number is 'text' or attr:NAME: every value starts with '', and 'text'.slice(5) is '', which reads the text too",
  },
  ...noAttribute('src/main/sites/families/selectors.ts', "element.attribs[attribute] ?? ''"),
  ...noAttribute('src/main/sites/families/mangathemesia.ts', "li.attribs['data-num'] ?? ''"),
  ...noAttribute('src/main/sites/families/webtoons.ts', "li.attribs['data-episode-no'] ?? ''"),
  // Chapter numbers
  {
    file: 'src/shared/chapter-number.ts',
    code: '[]',
    within: 'const candidates: Candidate[] = []',
    mutants: ['ArrayDeclaration: ["Stryker was here"]'],
    why: 'a stray element has no index and no role, so no rule picks it',
  },
  {
    file: 'src/shared/chapter-number.ts',
    code: "'volume'",
    within: "if ((VOLUME_BEFORE.has(text) || endsWithAny(text, THAI_VOLUME_ENDINGS)) && singleLetterOk) return 'volume'",
    mutants: ['StringLiteral: ""'],
    why: "no rule picks a volume's number, so a role of any other name that is not 'plain', 'marked' or 'version' reads the same",
  },
]

/** The parts of add-site's probe Site that no fetcher reads: a fetcher reads only the host pin; the rest is for the type. */
function probeParts() {
  const parts = [
    ["key: 'new-site'", ['StringLiteral: ""']],
    ["fetcher: 'http'", ['StringLiteral: ""']],
    ["fallback: 'none'", ['StringLiteral: ""']],
    [
      "adapter: { request: () => request, read: () => ({ kind: 'parsed', result: { chapters: [] } }) }",
      [
        'ObjectLiteral: {}',
        'ArrowFunction: () => undefined',
        'ArrowFunction: () => undefined',
        'ObjectLiteral: {}',
        'StringLiteral: ""',
        'ObjectLiteral: {}',
        'ArrayDeclaration: ["Stryker was here"]',
      ],
    ],
    ['seriesIdOf: () => null', ['ArrowFunction: () => undefined']],
    ["origin: 'sites.json'", ['StringLiteral: ""']],
  ]
  return parts.map(([code, mutants]) => ({
    file: 'src/main/use-cases/site-proposals.ts',
    code: /** @type {string} */ (code),
    mutants: /** @type {string[]} */ (mutants),
    why: 'a part of the probe Site no fetcher reads: a fetcher reads only the host pin of the Site it is given; the rest is for the type',
  }))
}

/** A missing number attribute read as '': any other text without a digit reads as no number too. */
function noAttribute(file, within) {
  return [
    {
      file,
      code: "''",
      within,
      mutants: ['StringLiteral: "Stryker was here!"'],
      why: 'a missing attribute is read as no text: any other text without a digit reads as no number too',
    },
  ]
}
