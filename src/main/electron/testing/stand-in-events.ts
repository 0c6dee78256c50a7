/** What every part of the stand-in shares: Electron's cancellable event object and the record of calls. */
import type { Event } from 'electron'

/** Appends one line to the stand-in's record (what the app asked Electron for, in order). */
export type Recorder = (line: string) => void

/** An Electron event (`preventDefault()`, `defaultPrevented`) carrying `params`. */
export function standInEvent<P extends object>(params: P): Event<P> {
  let prevented = false
  return {
    ...params,
    preventDefault: () => {
      prevented = true
    },
    get defaultPrevented() {
      return prevented
    },
  }
}
