/** A closed-loop load generator: N connections, each sending its next request when the last answers. */
import { Agent, request } from 'node:http'

export interface LoadResult {
  completed: number
  failed: number
  seconds: number
  perSecond: number
}

export async function closedLoop(options: {
  port: number
  connections: number
  durationMs: number
  next(connection: number, n: number): { method: string; path: string; headers: Record<string, string>; body?: string }
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections })
  const deadline = Date.now() + options.durationMs
  let completed = 0
  let failed = 0
  const started = Date.now()
  const loop = async (connection: number) => {
    for (let n = 0; Date.now() < deadline; n++) {
      const r = options.next(connection, n)
      const status = await new Promise<number>((resolve) => {
        const req = request({ host: '127.0.0.1', port: options.port, method: r.method, path: r.path, headers: r.headers, agent }, (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        })
        req.on('error', () => resolve(0))
        req.end(r.body)
      })
      if (status >= 200 && status < 300) completed++
      else failed++
    }
  }
  await Promise.all(Array.from({ length: options.connections }, (_, c) => loop(c)))
  agent.destroy()
  const seconds = (Date.now() - started) / 1000
  return { completed, failed, seconds, perSecond: completed / seconds }
}
