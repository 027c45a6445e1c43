/**
 * A document on a share is copied to this PC before a parse thread reads it: never one larger than
 * the bound, and never one that would leave the temporary folder's disk (nearly) full.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_REMOTE_DOCUMENT_BYTES, copyRefused } from './document-file.js';

const mounted: string[] = [];
afterEach(() => {
  for (const dir of mounted.splice(0)) {
    execFileSync('umount', [dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('copying a remote document', () => {
  it('copies one of ordinary size, and refuses one larger than the bound, saying how large', async () => {
    expect(await copyRefused(80 * 1024 * 1024)).toBeUndefined();
    expect((await copyRefused(MAX_REMOTE_DOCUMENT_BYTES + 1))?.text).toMatch(/at 1024 MiB it is larger than the 1024 MiB a document on a share may be/);
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a copy that would leave the disk of the temporary folder nearly full (a real small tmpfs)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-small-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=300m', 'tmpfs', dir]);
    mounted.push(dir);
    expect(await copyRefused(10 * 1024 * 1024, dir)).toBeUndefined();
    expect((await copyRefused(100 * 1024 * 1024, dir))?.text).toMatch(/would leave less than 256 MiB free in /);
  });
});
