/**
 * The fixture site's covers: a small PNG made in code for each Series (a colour band from its slug, a darker
 * frame), so covers are real images without any file in the repository.
 */
import { crc32, deflateSync } from 'node:zlib'

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A hue from a seed: the same slug, the same colour. */
function colourOf(seed: string): [number, number, number] {
  let h = 0
  for (const c of seed) h = (h * 31 + c.charCodeAt(0)) >>> 0
  const hue = h % 360
  const f = (n: number) => {
    const k = (n + hue / 30) % 12
    return Math.round(255 * (0.55 - 0.35 * Math.max(-1, Math.min(k - 3, 9 - k, 1))))
  }
  return [f(0), f(8), f(4)]
}

/** An RGB PNG of `width`×`height` for a seed. */
export function coverPng(seed: string, width = 60, height = 90): Buffer {
  const [r, g, b] = colourOf(seed)
  const rows: Buffer[] = []
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3)
    for (let x = 0; x < width; x++) {
      const frame = x < 3 || y < 3 || x >= width - 3 || y >= height - 3
      const band = y > height * 0.6 && y < height * 0.75
      const shade = frame ? 0.5 : band ? 1.25 : 1
      row[1 + x * 3] = Math.min(255, Math.round(r * shade))
      row[2 + x * 3] = Math.min(255, Math.round(g * shade))
      row[3 + x * 3] = Math.min(255, Math.round(b * shade))
    }
    rows.push(row)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
