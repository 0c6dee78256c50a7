/**
 * Real storage faults for tests (docs/reliability.md): a small tmpfs that can be filled to the last byte and
 * emptied again, and a database file made read-only for real. Used only by tests.
 *
 * Mounting needs root (CAP_SYS_ADMIN): where the machine does not allow it, `mountSmallTmpfs` says why and the
 * test that needs it skips with that reason. A read-only file is `chmod 0444` for an ordinary user; root
 * ignores file modes, so for root it is the immutable attribute (`chattr +i`), which binds root too — on a
 * file system that has it (tmpfs, ext4; not every overlay).
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'

export interface SmallTmpfs {
  readonly dir: string
  /** Fills the file system to its last byte (a filler file); returns the bytes written. */
  fill(): number
  /** Removes the filler: the space is back. */
  free(): void
  unmount(): void
}

const isRoot = () => process.getuid?.() === 0

/** A tmpfs of `bytes`, or the reason there cannot be one here. */
export function mountSmallTmpfs(bytes: number): SmallTmpfs | { skip: string } {
  if (process.platform !== 'linux') return { skip: `mounting a tmpfs needs Linux (this is ${process.platform})` }
  if (!isRoot()) return { skip: 'mounting a tmpfs needs root; run as root (CI does) to try a full disk' }
  const dir = mkdtempSync(join(tmpdir(), 'mb-tmpfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' })
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    const stderr = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()
    return { skip: `this machine does not allow mounting a tmpfs (${stderr})` }
  }
  const filler = join(dir, 'filler')
  let mounted = true
  const unmount = () => {
    if (!mounted) return
    mounted = false
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' })
    rmSync(dir, { recursive: true, force: true })
  }
  // A worker that ends before its afterAll still leaves no mount behind.
  process.once('exit', () => {
    try {
      unmount()
    } catch {
      // Already gone.
    }
  })
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a')
      const block = Buffer.alloc(4096, 0x5a)
      let written = 0
      try {
        for (;;) written += writeSync(fd, block)
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error
      }
      // The last partial block, byte by byte: nothing is left.
      try {
        for (;;) written += writeSync(fd, block, 0, 1)
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error
      } finally {
        closeSync(fd)
      }
      return written
    },
    free: () => rmSync(filler, { force: true }),
    unmount,
  }
}

export interface Ext4Image {
  readonly dir: string
  /**
   * Makes the kernel turn the file system read-only under open files, as it does after an ext4 error
   * (`errors=remount-ro`): every write fails from then on, until it is unmounted.
   */
  failReadOnly(): void
  unmount(): void
}

/** A small ext4 image mounted with `errors=remount-ro` through a loop device, or the reason there cannot be one. */
export function mountExt4Image(bytes: number): Ext4Image | { skip: string } {
  if (process.platform !== 'linux' || !isRoot()) return { skip: 'a loop-mounted ext4 image needs Linux and root' }
  const base = mkdtempSync(join(tmpdir(), 'mb-ext4-'))
  const image = join(base, 'disk.ext4')
  const dir = join(base, 'mnt')
  mkdirSync(dir)
  try {
    execFileSync('truncate', ['-s', String(bytes), image], { stdio: 'pipe' })
    execFileSync('mkfs.ext4', ['-q', '-F', image], { stdio: 'pipe' })
    execFileSync('mount', ['-o', 'loop,errors=remount-ro', image, dir], { stdio: 'pipe' })
  } catch (error) {
    rmSync(base, { recursive: true, force: true })
    const stderr = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()
    return { skip: `this machine cannot loop-mount an ext4 image (${stderr})` }
  }
  const device = execFileSync('findmnt', ['-n', '-o', 'SOURCE', dir], { encoding: 'utf8' }).trim().split('/').pop()!
  return {
    dir,
    failReadOnly: () => writeFileSync(`/sys/fs/ext4/${device}/trigger_fs_error`, '1'),
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' })
      rmSync(base, { recursive: true, force: true })
    },
  }
}

export interface ReadOnlyFile {
  /** Makes the file writable again. */
  undo(): void
}

/** Makes `file` read-only for this process, or says why it cannot. */
export function makeReadOnly(file: string): ReadOnlyFile | { skip: string } {
  if (!isRoot()) {
    chmodSync(file, 0o444)
    return { undo: () => chmodSync(file, 0o644) }
  }
  try {
    execFileSync('chattr', ['+i', file], { stdio: 'pipe' })
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()
    return { skip: `running as root, a read-only file needs chattr +i, which this file system refuses (${stderr})` }
  }
  return { undo: () => execFileSync('chattr', ['-i', file], { stdio: 'pipe' }) }
}

/** A directory for a data directory inside `base`. */
export function dataDirIn(base: string, name = 'data'): string {
  const dir = join(base, name)
  mkdirSync(dir, { recursive: true })
  return dir
}

/**
 * Overwrites the header of a page in the middle of a closed database with garbage, as a bad sector or a torn
 * copy would: the file still opens and most reads answer; `quick_check` finds it. Returns the page number.
 */
export function corruptMiddlePage(file: string): number {
  const probe = new BetterSqlite3(file)
  probe.pragma('wal_checkpoint(TRUNCATE)')
  const pages = Number(probe.pragma('page_count', { simple: true }))
  const size = Number(probe.pragma('page_size', { simple: true }))
  probe.close()
  const page = Math.floor(pages / 2)
  const fd = openSync(file, 'r+')
  try {
    writeSync(fd, Buffer.alloc(64, 0xab), 0, 64, (page - 1) * size)
  } finally {
    closeSync(fd)
  }
  return page
}
