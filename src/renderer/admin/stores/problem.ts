/** The window's one line of trouble: a call that failed, or a missing admin session. */
import { ref } from 'vue'
import { AppError } from '../../../shared/errors'

export const problem = ref<string | null>(null)
export const signedOut = ref(false)

/** Runs an admin call; a failure is shown, not thrown. Returns undefined when it failed. */
export async function attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    const value = await work()
    signedOut.value = false
    return value
  } catch (error) {
    if (error instanceof AppError && error.code === 'unauthorized') signedOut.value = true
    else problem.value = error instanceof Error ? error.message : String(error)
    return undefined
  }
}
