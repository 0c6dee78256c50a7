/**
 * `npm run proto`: writes src/main/library/mihon/backup.proto.json, the protobufjs descriptor the app loads,
 * from backup.proto, the schema written by hand. A test fails when the two differ.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { PROTO_FILE, PROTO_JSON_FILE, descriptorFromProto } from '../src/main/library/mihon/descriptor'

writeFileSync(PROTO_JSON_FILE, `${JSON.stringify(descriptorFromProto(readFileSync(PROTO_FILE, 'utf8')), null, 2)}\n`)
console.log(`wrote ${PROTO_JSON_FILE}`)
