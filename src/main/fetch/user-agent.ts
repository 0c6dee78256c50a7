/** The honest User-Agent every fetch sends: it names the app and what it does. */
import pkg from '../../../package.json' with { type: 'json' }

export const USER_AGENT = `MangaBookmark/${pkg.version} (household bookmark checker; one request per Series per hour)`
