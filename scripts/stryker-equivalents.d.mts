/** The types of stryker-equivalents.mjs, for its test. */
export interface EquivalentMutant {
  file: string
  code: string
  within?: string
  mutants: string[]
  why: string
}
export declare function squeeze(text: string): string
export declare class EquivalentsIgnorer {
  constructor(options: { equivalentMutants?: readonly EquivalentMutant[] })
  shouldIgnore(path: unknown): string | undefined
}
export declare const strykerPlugins: ReadonlyArray<{ kind: string; name: string; injectableClass: unknown }>
