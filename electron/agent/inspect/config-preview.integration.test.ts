/** POST /v1/config/preview of an smb receiver: the first rows of a file on the test Samba share. */
import { beforeAll, describe, expect, it } from 'vitest';
import { CYCLE_HEADER, cycleRows, previewFixture } from '../../testing/preview-fixture.js';
import { requireSamba, sambaPlant } from '../../testing/samba-test-share.js';

const { preview } = previewFixture();

describe('preview of an smb receiver (Samba)', () => {
  let sambaMissing: Error | undefined;
  beforeAll(async () => {
    sambaMissing = await requireSamba().then(() => undefined, (error: Error) => error);
  });

  it('reads the first rows of a file on the share', async () => {
    if (sambaMissing) throw sambaMissing;
    const share = sambaPlant();
    try {
      share.write('press_1.csv', CYCLE_HEADER + cycleRows(12));
      const { json } = await preview({ configuration: share.config, rows: 3 });
      const press = json.response.streams[0];
      expect(json.response.protocol).toBe('smb');
      expect(press.source).toMatch(/^\\\\127\.0\.0\.1\\data\\test-[^\\]+\\press_1\.csv$/);
      expect(press.records.map((r: { fieldvalues: { part: string } }) => r.fieldvalues.part)).toEqual(['P0', 'P1', 'P2']);
    } finally {
      share.remove();
    }
  });
});
