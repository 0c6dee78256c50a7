/**
 * Import and export in the window: the only caller of the admin contract's import and export methods. An
 * import is a job in the core, read and previewed, then confirmed and written; its progress is polled.
 */
import { onBeforeUnmount, ref } from 'vue'
import type { ImportJobView } from '../../../shared/admin-api'
import { IMPORT_MAX_FILE_BYTES } from '../../../shared/library'
import { AppError } from '../../../shared/errors'
import { admin } from '../api'
import { attempt } from './problem'

const POLL_MS = 250

/** A file's bytes as base64, read by the browser itself. */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'))
    reader.readAsDataURL(file)
  })
}

/** Saves data as a file through the browser's download. */
export function download(name: string, type: string, data: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export function useImport() {
  const job = ref<ImportJobView | null>(null)
  /** A refusal of this import's own (a file too big, a URL no Site has), shown beside it. */
  const refusal = ref<string | null>(null)
  /** The new Readers' tokens, kept for the page once the core has shown them. */
  const tokens = ref<Array<{ name: string; token: string }>>([])
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  const follow = (view: ImportJobView | undefined) => {
    if (!view) return
    job.value = view
    if (view.result?.readersCreated.some((r) => r.token)) tokens.value = view.result.readersCreated
    clearTimeout(timer)
    if (!stopped && (view.phase === 'reading' || view.phase === 'writing')) {
      timer = setTimeout(() => void attempt(() => admin.importJob({ jobId: view.id })).then(follow), POLL_MS)
    }
  }
  const refused = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    refusal.value = null
    try {
      return await work()
    } catch (error) {
      if (error instanceof AppError && error.code !== 'unauthorized' && error.code !== 'offline') refusal.value = error.message
      else await attempt(() => Promise.reject(error))
      return undefined
    }
  }
  onBeforeUnmount(() => {
    stopped = true
    clearTimeout(timer)
  })

  return {
    job,
    refusal,
    tokens,
    async start(readerId: number | null, file: File) {
      tokens.value = []
      if (file.size > IMPORT_MAX_FILE_BYTES) {
        refusal.value = `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MiB; an import reads files up to ${IMPORT_MAX_FILE_BYTES / 1024 / 1024} MiB`
        return
      }
      const base64 = await fileToBase64(file)
      follow(await refused(() => admin.startImport({ readerId: readerId ?? undefined, file: { fileName: file.name, base64 } })))
    },
    async map(sourceId: string, to: { site: string } | { url: string }) {
      if (job.value) follow(await refused(() => admin.mapImportSource({ jobId: job.value!.id, sourceId, ...to })))
    },
    async confirm() {
      if (job.value) follow(await refused(() => admin.confirmImport({ jobId: job.value!.id })))
    },
    async cancel() {
      if (job.value && job.value.phase !== 'writing') await attempt(() => admin.cancelImport({ jobId: job.value!.id }))
      clearTimeout(timer)
      job.value = null
      refusal.value = null
    },
  }
}

/** Downloads the whole library as one export document. */
export async function exportLibrary(): Promise<boolean> {
  const doc = await attempt(() => admin.exportLibrary())
  if (!doc) return false
  download(
    `manga-bookmark-library-${new Date(doc.exportedAt).toISOString().slice(0, 10)}.json`,
    'application/json',
    `${JSON.stringify(doc, null, 2)}\n`,
  )
  return true
}
