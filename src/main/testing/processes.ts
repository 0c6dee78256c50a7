/** Live processes whose command line mentions a path (a browser profile), read from /proc. Linux only. */
import { readdirSync, readFileSync } from 'node:fs'

export interface ProcessInfo {
  pid: number
  cmdline: string
}

export function processesMentioning(path: string): ProcessInfo[] {
  const found: ProcessInfo[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ')[0]
      if (state === 'Z' || state === 'X') continue
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ')
      if (cmdline.includes(path)) found.push({ pid: Number(entry), cmdline })
    } catch {
      // The process ended while we looked.
    }
  }
  return found
}

/** The browser's main process: the one with the profile and no `--type=`. */
export function browserMainProcess(profile: string): ProcessInfo | undefined {
  return processesMentioning(profile).find((p) => p.cmdline.includes(`--user-data-dir=${profile}`) && !p.cmdline.includes('--type='))
}

/**
 * Memory of these processes together, in bytes: the proportional set size (shared pages split between the
 * processes sharing them, so Chromium's many processes are not counted over and over), else resident size.
 */
export function residentBytes(processes: ProcessInfo[]): number {
  let total = 0
  for (const { pid } of processes) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
      total += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024
    } catch {
      try {
        total += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024
      } catch {
        // gone
      }
    }
  }
  return total
}
