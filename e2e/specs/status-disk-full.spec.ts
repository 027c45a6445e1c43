import fs from 'node:fs';
import path from 'node:path';
import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { expect, test } from '../fixtures/console-server.js';

// The demo's data directory on a real 64 MB file system that is then filled to the last byte.
test.use({ smallDiskMegabytes: 64 });
test.skip(process.getuid?.() !== 0, 'mounting the small disk needs root (CI runs as root)');

test('when the data disk fills up, Status and the header say so in words, and both clear once space returns', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  const status = new StatusPage(page);
  await expect(status.service('receiver:demo_plant_opcua')).toContainText('running');
  await expect(status.storageProblems).toHaveCount(0);

  const mount = path.dirname(server.dataDirectory);
  const filler = path.join(mount, 'filler');
  fillToTheLastByte(filler);

  // The demo plant keeps sending: the next write fails, and the console shows where and what.
  await expect(status.storageProblems).toBeVisible({ timeout: 30_000 });
  await expect(status.storageProblems).toContainText(`Disk full at ${mount}`);
  await expect(app.headerAgentState).toContainText('disk full');
  // The agent is still up and answering: the page keeps updating.
  await expect(app.connectionBanner).toHaveCount(0);

  fs.rmSync(filler);
  await expect(status.storageProblems).toHaveCount(0, { timeout: 30_000 });
  await expect(app.headerAgentState).not.toContainText('disk full');
});

function fillToTheLastByte(file: string): void {
  for (const size of [1024 * 1024, 4096, 64]) {
    const fd = fs.openSync(file, 'a');
    const block = Buffer.alloc(size, 1);
    try {
      for (;;) fs.writeSync(fd, block);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'ENOSPC') throw cause;
    } finally {
      fs.closeSync(fd);
    }
  }
}
