/** The types of mutation-equivalents.mjs, for the test of its ignorer. */
import type { EquivalentMutant } from './scripts/stryker-equivalents.mjs'
export declare const equivalentMutants: readonly EquivalentMutant[]
