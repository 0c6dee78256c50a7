/** The types of stryker-log-ignorer.mjs, for its test: the plugin declarations Stryker loads. */
export declare const strykerPlugins: ReadonlyArray<{ kind: string; name: string; injectableClass: unknown }>
