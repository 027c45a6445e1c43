import fs from 'node:fs';

/** Reads into a given buffer from a file position; answers the bytes read (fewer at the end). */
export type ReadInto = (into: Buffer, at: number) => Promise<number>;

/**
 * Runs `use` with a reader of a local file that is open only while it runs: no handle is held
 * between a receiver's looks (or while a preview waits), and a scan of many pieces opens the file
 * once, not once a piece.
 */
export async function withFileReader<T>(
  file: string,
  use: (read: ReadInto) => Promise<T>,
): Promise<T> {
  const handle = await fs.promises.open(file, 'r');
  try {
    return await use(async (into, at) => (await handle.read(into, 0, into.length, at)).bytesRead);
  } finally {
    await handle.close();
  }
}

/** Up to `length` bytes of a local file from `offset` (fewer at its end), opened for this read. */
export function readRange(file: string, offset: number, length: number): Promise<Buffer> {
  return withFileReader(file, async (read) => {
    const buffer = Buffer.alloc(length);
    return buffer.subarray(0, await read(buffer, offset));
  });
}
