/**
 * The decoded shapes of the backup messages this app reads, and their protobufjs types loaded from the
 * generated descriptor (descriptor.ts). Field names are backup.proto's, camel-cased by protobufjs; an int64
 * arrives as a number or a Long, so it is read through `int64String`/`int64Number`.
 */
import protobuf from 'protobufjs'
import descriptor from './backup.proto.json' with { type: 'json' }

type Int64 = number | protobuf.Long

export interface BackupMangaMessage {
  source: Int64
  url: string
  title: string
  chapters: BackupChapterMessage[]
  categories: Int64[]
  favorite: boolean
  history: BackupHistoryMessage[]
  customTitle?: string
}

export interface BackupChapterMessage {
  url: string
  name: string
  read: boolean
  chapterNumber: number
}

export interface BackupHistoryMessage {
  url: string
  lastRead: Int64
}

export interface BackupCategoryMessage {
  name: string
  order: Int64
}

export interface BackupSourceMessage {
  name: string
  sourceId: Int64
}

const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace)

export const BackupType = root.lookupType('mihon.Backup')
export const BackupMangaType = root.lookupType('mihon.BackupManga')
export const BackupCategoryType = root.lookupType('mihon.BackupCategory')
export const BackupSourceType = root.lookupType('mihon.BackupSource')

function int64BigInt(value: Int64): bigint {
  if (typeof value === 'number') return BigInt(value)
  const bits = (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0)
  return value.unsigned ? bits : BigInt.asIntN(64, bits)
}

/** An int64 in decimal (a source id needs all 64 bits). */
export function int64String(value: Int64): string {
  return int64BigInt(value).toString()
}

/** An int64 that holds a time or an order: far inside the safe range. */
export function int64Number(value: Int64): number {
  return Number(int64BigInt(value))
}
