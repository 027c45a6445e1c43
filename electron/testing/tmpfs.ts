import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDirectory } from './test-host.js';

/**
 * A real, small file system (tmpfs) for full-disk tests. Mounting needs root (CI runs as root);
 * `tmpfsUnavailable()` says why it cannot be used, so that a test can be skipped with that reason.
 */
export interface SmallDisk {
  directory: string;
  /** Fills the disk to the last byte with a filler file. */
  fill(): void;
  /** Removes the filler: the disk has room again. */
  free(): void;
  unmount(): void;
}

let probed: string | undefined | null = null;

/** Why a tmpfs cannot be mounted here, or undefined when it can. */
export function tmpfsUnavailable(): string | undefined {
  if (probed !== null) return probed;
  const probe = tempDirectory('tributary-tmpfs-probe-');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { encoding: 'utf8' });
  if (mounted.status === 0) {
    spawnSync('umount', [probe]);
    probed = undefined;
  } else probed = `cannot mount a tmpfs for the full-disk test (needs root): ${(mounted.stderr || mounted.error?.message || '').trim()}`;
  fs.rmSync(probe, { recursive: true, force: true });
  return probed;
}

export function mountSmallDisk(megabytes: number): SmallDisk {
  const directory = tempDirectory('tributary-small-disk-');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0755`, 'tmpfs', directory], { encoding: 'utf8' });
  if (mounted.status !== 0) throw new Error(`mount failed: ${mounted.stderr}`);
  const filler = path.join(directory, 'filler');
  return {
    directory,
    fill() {
      const fd = fs.openSync(filler, 'a');
      const block = Buffer.alloc(64 * 1024, 1);
      try {
        for (;;) fs.writeSync(fd, block);
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== 'ENOSPC') throw cause;
      } finally {
        fs.closeSync(fd);
      }
      // Whatever is left below a block: one byte at a time.
      const small = fs.openSync(filler, 'a');
      try {
        for (;;) fs.writeSync(small, Buffer.alloc(512, 1));
      } catch {
        // full
      } finally {
        fs.closeSync(small);
      }
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      spawnSync('umount', ['-l', directory]);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
