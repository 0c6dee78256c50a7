import { runRestoreCommand } from './restore'

runRestoreCommand(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`restore: ${(error as Error).message}`)
    process.exit(1)
  },
)
