/**
 * `--help` for every command (docs/design.md#shells-and-commands): one rule for what asks for it, and the start
 * every command shares — help, its options read strictly, the data directory.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { resolveDataDir } from '../paths'

type Options = NonNullable<ParseArgsConfig['options']>

/** Where a command writes: its answers and its complaints. */
export interface Output {
  out(line: string): void
  err(line: string): void
}

/** Whether a command line asks for help: `--help` or `-h` before any `--`. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h')
}

/** How a command reads its line: its name (for its complaints), options, whether it takes words, help and usage. */
export interface CommandSpec<O extends Options> {
  name: string
  options: O
  positionals?: boolean
  help: string
  usage: string
}

/**
 * A command's line read: `--help` prints the help (exit 0); an unknown or malformed option says so with the usage
 * (exit 2). Either way the exit code comes back instead of the values.
 */
export function readCommandLine<const O extends Options>(argv: string[], io: Output, spec: CommandSpec<O>) {
  if (wantsHelp(argv)) {
    io.out(spec.help)
    return 0
  }
  try {
    return parseArgs({ args: argv, options: spec.options, allowPositionals: spec.positionals ?? false, strict: true })
  } catch (error) {
    io.err(`${spec.name}: ${(error as Error).message}\n${spec.usage}`)
    return 2
  }
}

/** The data directory `--data` names (or the default), or `undefined` after saying why it cannot be one. */
export function dataDirOf(name: string, given: string | undefined, io: Output, env: NodeJS.ProcessEnv): string | undefined {
  const data = resolveDataDir(given, env)
  if ('error' in data) {
    io.err(`${name}: ${data.error}`)
    return undefined
  }
  return data.dir
}
