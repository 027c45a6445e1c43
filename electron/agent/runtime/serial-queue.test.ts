import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

describe('SerialQueue', () => {
  it('runs operations one at a time in call order, past a failing one', async () => {
    const queue = new SerialQueue();
    const order: string[] = [];
    const slow = queue.run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('slow');
    });
    const failing = queue.run(async () => {
      order.push('failing');
      throw new Error('no');
    });
    const last = queue.run(async () => order.push('last'));
    await slow;
    await expect(failing).rejects.toThrow('no');
    await last;
    expect(order).toEqual(['slow', 'failing', 'last']);
  });

  it('keeps no result once it is handed out (a saved configuration is not held until the next operation)', async () => {
    const queue = new SerialQueue();
    let ref: WeakRef<object> | undefined;
    await queue.run(async () => {
      const result = { config: new Array(100_000).fill('tag') };
      ref = new WeakRef(result);
      return result;
    });
    // The caller dropped the result; a WeakRef keeps its target until the job that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(ref!.deref()).toBeUndefined();
  });
});
