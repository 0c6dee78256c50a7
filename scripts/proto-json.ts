/**
 * `npm run proto`: writes src/main/library/mihon/backup.proto.json, the protobufjs descriptor the app loads,
 * from backup.proto, the schema written by hand. A test fails when the two differ.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { wantsHelp } from '../src/main/cli/help'
import { PROTO_FILE, PROTO_JSON_FILE, descriptorFromProto } from '../src/main/library/mihon/descriptor'

if (wantsHelp(process.argv.slice(2))) {
  console.log(`Usage: npm run proto\n\nWrites ${PROTO_JSON_FILE}, the descriptor the app loads, from ${PROTO_FILE}. Takes no options.`)
  process.exit(0)
}
writeFileSync(PROTO_JSON_FILE, `${JSON.stringify(descriptorFromProto(readFileSync(PROTO_FILE, 'utf8')), null, 2)}\n`)
console.log(`wrote ${PROTO_JSON_FILE}`)
