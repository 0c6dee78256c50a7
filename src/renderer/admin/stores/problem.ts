/**
 * The window's one line of trouble: a call that failed, a missing admin session, or the app out of reach. Out of
 * reach clears itself at the next call that answers, and says how old what the window shows is.
 */
import { ref } from 'vue'
import { AppError } from '../../../shared/errors'

export const problem = ref<string | null>(null)
export const signedOut = ref(false)
/** When the app stopped answering (null: it answers); what the pages show is from `lastAnswerAt`. */
export const unreachableSince = ref<number | null>(null)
/** When a call last answered (0: never). */
export const lastAnswerAt = ref(0)

/** Runs an admin call; a failure is shown, not thrown. Returns undefined when it failed. */
export async function attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    const value = await work()
    signedOut.value = false
    unreachableSince.value = null
    lastAnswerAt.value = Date.now()
    return value
  } catch (error) {
    const offline = error instanceof AppError && error.code === 'offline'
    // Any answer, even a refusal, is the app reached again.
    if (offline) unreachableSince.value ??= Date.now()
    else unreachableSince.value = null
    if (error instanceof AppError && error.code === 'unauthorized') signedOut.value = true
    else if (!offline) problem.value = error instanceof Error ? error.message : String(error)
    return undefined
  }
}

/**
 * Runs an admin call whose refusal belongs beside the field it is about: the app's reason goes to `beside` (null
 * when the call went through); signed out, out of reach or a fault of ours is the banner, as for every call.
 */
export async function attemptBeside<T>(work: () => Promise<T>, beside: { value: string | null }): Promise<T | undefined> {
  beside.value = null
  return attempt(async () => {
    try {
      return await work()
    } catch (error) {
      if (!(error instanceof AppError) || ['unauthorized', 'offline', 'internal'].includes(error.code)) throw error
      beside.value = splitRefusal(error.message).text
      return undefined
    }
  })
}

/**
 * A refusal's words apart from the places in front of them (`updateSettings: ntfyServer: …` → the text and
 * ['updateSettings', 'ntfyServer']): the place says where to show it, the text is what a person reads.
 */
export function splitRefusal(message: string): { places: string[]; text: string } {
  const places: string[] = []
  let text = message
  for (let m = /^((?:[\w-]+\.)*[\w-]+): (?=\S)/.exec(text); m; m = /^((?:[\w-]+\.)*[\w-]+): (?=\S)/.exec(text)) {
    places.push(m[1]!)
    text = text.slice(m[0].length)
  }
  return { places, text: text ? text[0]!.toUpperCase() + text.slice(1) : message }
}
