/** Quit drains everything within a few seconds: each task finishes or is given up on at the deadline. */
export interface DrainReport {
  /** Tasks that had not finished by the deadline. */
  late: string[]
}

export async function drain(tasks: Array<{ name: string; run: () => Promise<unknown> }>, timeoutMs: number): Promise<DrainReport> {
  const pending = new Set(tasks.map((t) => t.name))
  const all = Promise.allSettled(
    tasks.map(async (t) => {
      await t.run()
      pending.delete(t.name)
    }),
  )
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))])
  clearTimeout(timer)
  return { late: [...pending] }
}
