/** Test helper: signs in to a running admin listener as the owner's browser does, by its token URL. */
import { request } from 'node:http'

/** The `cookie` header a browser sends after opening `/admin/?token=…` on the admin port; throws on a refusal. */
export function adminSessionCookie(port: number, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: `/admin/?token=${encodeURIComponent(token)}`, headers: { host: `127.0.0.1:${port}` } },
      (res) => {
        res.resume()
        const set = res.headers['set-cookie']?.[0]
        if (res.statusCode !== 303 || !set) return reject(new Error(`admin sign-in answered ${res.statusCode}`))
        resolve(set.split(';')[0]!)
      },
    )
    req.on('error', reject)
    req.end()
  })
}
