/**
 * The Sites of the 100k library, served from a child process so its CPU is never counted as the app's:
 * `GET /<site>/manga/series-NNNNNN/` answers a Madara page of about 23 KB (navigation,
 * a description, 80 chapter rows, scripts), whose Latest Chapter is the library's (bench/library.ts), so a
 * Lane's checks are the steady state. Usage: `tsx bench/site-server.ts` → prints {"origin": …} on one line.
 */
import { createServer } from 'node:http'
import { chapterOf } from './library'

/** The page of Series number `i`: what a Madara Site sends, trimmed of nothing the parser skips anyway. */
export function madaraBenchPage(site: string, i: number, origin: string): string {
  const base = `${origin}/${site}/manga/series-${String(i).padStart(6, '0')}/`
  const latest = chapterOf(i)
  const nav = Array.from(
    { length: 30 },
    (_, n) => `<li class="menu-item menu-item-type-taxonomy"><a href="${origin}/genre/genre-${n}/">Genre ${n}</a></li>`,
  ).join('\n')
  const rows = Array.from({ length: Math.min(80, latest) }, (_, n) => latest - n)
    .map(
      (n) =>
        `<li class="wp-manga-chapter"><a href="${base}chapter-${n}/">Chapter ${n}</a>\n<span class="chapter-release-date"><i>March ${1 + (n % 28)}, 2024</i></span></li>`,
    )
    .join('\n')
  const description = 'A story of ambition, loss and a sword that remembers. '.repeat(10)
  const scripts = Array.from(
    { length: 6 },
    (_, n) =>
      `<script id="script-${n}">window.__data${n} = ${JSON.stringify({ n, theme: 'madara', lazy: true, ids: [1, 2, 3] })};</script>`,
  ).join('\n')
  return `<!DOCTYPE html>
<html lang="en-US"><head><meta charset="UTF-8"><title>Series ${i} – Bench Scans</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${origin}/wp-content/themes/madara/style.css">${scripts}</head>
<body class="page manga-page"><header class="site-header"><nav><ul class="main-navigation">${nav}</ul></nav></header>
<div class="site-content"><div class="post-title"><h1>Series ${i}</h1></div>
<div class="summary__content"><p>${description}</p></div>
<div class="c-page-content"><div class="listing-chapters_wrap"><ul class="main version-chap no-volumn">
${rows}
</ul></div></div></div><footer>${nav}</footer></body></html>
`
}

const PAGE = /^\/([a-z-]+)\/manga\/series-(\d{6})\/$/

if (process.argv[1]?.endsWith('site-server.ts')) {
  const server = createServer((req, res) => {
    const match = PAGE.exec(req.url ?? '')
    if (!match) {
      res.writeHead(404).end()
      return
    }
    const origin = `http://${req.headers.host}`
    res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' })
    res.end(madaraBenchPage(match[1]!, Number(match[2]), origin))
  })
  server.keepAliveTimeout = 60_000
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    const { port } = server.address() as { port: number }
    console.log(JSON.stringify({ origin: `http://127.0.0.1:${port}` }))
  })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0))
}
