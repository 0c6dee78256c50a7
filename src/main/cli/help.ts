/** `--help` for every command (docs/design.md#shells-and-commands): one rule for what asks for it. */

/** Whether a command line asks for help: `--help` or `-h` before any `--`. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h')
}
