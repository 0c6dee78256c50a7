import { runAdminLinkCommand } from './admin-link'

runAdminLinkCommand(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`admin-link: ${(error as Error).message}`)
    process.exit(1)
  },
)
