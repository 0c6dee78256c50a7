/**
 * The static migration provider: every migration, in order, bundled at build time so nothing reads a
 * directory at run time (docs/adr/0004-own-migrator.md). Append only.
 */
import * as m0001 from './0001_initial'
import * as m0002 from './0002_latest_chapter_history'
import * as m0003 from './0003_settings'
import * as m0004 from './0004_last_outcome'
import * as m0005 from './0005_import_source_mappings'
import * as m0006 from './0006_refusal_length'
import * as m0007 from './0007_scale'
import * as m0008 from './0008_cadence'
import * as m0009 from './0009_chapters'
import * as m0010 from './0010_notifications'
import * as m0011 from './0011_reader_site_counts'
import * as m0012 from './0012_delivery_ids_and_checked_chapter'
import * as m0013 from './0013_reader_devices'
import * as m0014 from './0014_moves_and_gone'
import * as m0015 from './0015_channel_kind_checked_at_the_boundary'
import * as m0016 from './0016_found_again'
import * as m0017 from './0017_series_aliases'

export interface Migration {
  /** `NNNN_name`, the file's name; the number is the schema version it brings. */
  readonly name: string
  /** Plain SQL, applied in one transaction. */
  readonly up: string
}

export const migrations: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
]
