import { Instrumenter } from '@stryker-mutator/instrumenter'
import { readFileSync } from 'node:fs'
import { strykerPlugins } from './stryker-log-ignorer.mjs'
import { EquivalentsIgnorer } from './stryker-equivalents.mjs'
import { equivalentMutants } from '../mutation-equivalents.mjs'
const logger = { debug(){}, info(){}, warn(){}, error(){}, trace(){}, fatal(){}, isDebugEnabled: () => false }
const [file, from, to] = process.argv.slice(2)
const content = readFileSync(file, 'utf8')
const log = new strykerPlugins[0].injectableClass()
const r = await new Instrumenter(logger).instrument([{ name: process.cwd() + '/' + file, content, mutate: true }], { plugins: null, excludedMutations: [], ignorers: [log, new EquivalentsIgnorer({ equivalentMutants })] })
for (const m of r.mutants) { const l = m.location.start.line + 1; if (l >= +from && l <= +to) console.log(l, m.status ?? '', m.mutatorName, JSON.stringify(m.replacement), m.statusReason ? m.statusReason.slice(0, 30) : '') }
