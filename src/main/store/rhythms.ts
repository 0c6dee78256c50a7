/** The Series whose releases an adaptive Site has a rhythm for (Upcoming, issue 26 §3). */
import type { Db } from './database'
import type { SeriesRow } from './schema'

export type RhythmRow = Pick<SeriesRow, 'site' | 'series_id' | 'title' | 'rhythm' | 'rhythm_misses'>

/** Held, unfinished Series with a rhythm, at most `limit` (the planned ones first: the soonest checks). */
export async function seriesWithRhythm(db: Db, limit: number): Promise<RhythmRow[]> {
  return db
    .selectFrom('series')
    .select(['site', 'series_id', 'title', 'rhythm', 'rhythm_misses'])
    .where('reader_count', '>', 0)
    .where('finished_at', '=', 0)
    .where('rhythm', '<>', '')
    .orderBy('next_check_at')
    .limit(limit)
    .execute()
}
