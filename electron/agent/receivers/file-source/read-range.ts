import fs from 'node:fs';

/**
 * Up to `length` bytes of a local file from `offset` (fewer at its end): the file is opened for
 * this read only, so that no handle is held between a receiver's looks (or while a preview waits).
 */
export async function readRange(file: string, offset: number, length: number): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
