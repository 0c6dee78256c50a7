/**
 * The admin operations on the whole library: importing another app's backup or a list (a job the owner previews,
 * maps and confirms) and exporting the library as one document.
 */
import type { AdminApi } from '../../shared/admin-api'
import type { ExportDocument } from '../../shared/export-format'
import { exportLibrary } from '../use-cases/library-export'
import { ImportJobs } from '../use-cases/library-import'
import type { AdminScope } from './admin-scope'
import { JsonText } from './json-text'

type LibraryOperations = Pick<
  AdminApi,
  'startImport' | 'importJob' | 'mapImportSource' | 'confirmImport' | 'cancelImport' | 'exportLibrary'
>

export function libraryOperations(scope: AdminScope): LibraryOperations {
  const { ctx, core, db, now } = scope
  const imports = new ImportJobs({
    db,
    registry: core.registry,
    clock: core.clock,
    log: core.log,
    dataDir: core.dataDir,
    addSite: (site) => core.addSite(site),
  })
  return {
    startImport: ({ readerId, file }) =>
      imports.start({
        readerId,
        fileName: file.fileName,
        bytes: file.base64 !== undefined ? Buffer.from(file.base64, 'base64') : Buffer.from(file.text ?? '', 'utf8'),
      }),
    importJob: async ({ jobId }) => imports.get(jobId),
    mapImportSource: ({ jobId, sourceId, site, url }) => imports.map(jobId, { sourceId, site, url }),
    confirmImport: async ({ jobId }) => imports.confirm(jobId),
    async cancelImport({ jobId }) {
      imports.cancel(jobId)
      return null
    },
    // Off the main thread, as JSON text the admin listener sends as it is (json-text.ts); typed as the document it holds.
    exportLibrary: async () =>
      ctx.bigReads
        ? (new JsonText(await ctx.bigReads.exportLibrary(now())) as unknown as ExportDocument)
        : exportLibrary({ db, registry: core.registry, now: now() }),
  }
}
