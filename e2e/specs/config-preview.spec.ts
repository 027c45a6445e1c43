import fs from 'node:fs';
import path from 'node:path';
import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('an engineer changes a file filter and previews the first rows of a dropped CSV before saving', async ({ page, server }) => {
  // A new machine file, local times of the demo zone (Europe/Berlin, UTC+1 in January).
  fs.writeFileSync(
    path.join(server.dataDirectory, 'demo', 'drop', 'press9_20260105.csv'),
    'time,part_id,cyc_t,force_kN,ok\n2026-01-05 06:00:00,P9001,31.5,790.0,1\n2026-01-05 06:00:31,P9002,31.2,791.5,1\n2026-01-05 06:01:02,P9003,30.9,789.0,0\n',
  );
  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');

  // The Press_1 stream should read press9_*.csv instead: changed in the editor, not saved.
  await config.line('"press1_*.csv"').click();
  await config.replaceBeforeLineEnd(1, 'press1_*.csv'.length, 'press9_*.csv');
  await expect(config.line('"press9_*.csv"')).toBeVisible();

  await config.preview.click();
  await expect(config.previewDialog).toBeVisible();
  const table = config.previewTable('Press_1:cycle');
  await expect(table).toBeVisible({ timeout: 20_000 });
  await expect(config.previewSection('Press_1:cycle')).toContainText('press9_20260105.csv');
  const rows = table.getByRole('row');
  // Header and the three rows, through the parser and the rename transform, in UTC and local time.
  await expect(rows).toHaveCount(4);
  await expect(table.getByRole('columnheader')).toContainText(['Time stamp (local)', 'Time stamp (UTC)', 'time', 'part_id', 'cycle_time_s', 'force_kN', 'ok']);
  await expect(rows.nth(1)).toContainText('2026-01-05T05:00:00.000000Z');
  await expect(rows.nth(1)).toContainText('P9001');
  await expect(rows.nth(1)).toContainText('31.5');
  await expect(rows.nth(3)).toContainText('P9003');

  await config.previewDialog.getByRole('button', { name: 'Close' }).click();
  // Nothing was saved: the change is still only in the editor.
  await expect(page.getByText('unsaved changes')).toBeVisible();
});
