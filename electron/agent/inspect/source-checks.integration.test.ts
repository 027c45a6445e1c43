/** Validation of share folders: POST /v1/config/validate on the test Samba server (scripts/ci/start-samba.sh). */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SAMBA, requireSamba, sambaPlant } from '../../testing/samba-test-share.js';
import { validationFixture } from '../../testing/validation-fixture.js';

const { validate } = validationFixture();

describe('validation of share folders (Samba)', () => {
  let sambaMissing: Error | undefined;
  beforeAll(async () => {
    sambaMissing = await Promise.all([requireSamba('plain'), requireSamba('strict')]).then(() => undefined, (error: Error) => error);
  });
  const plants: ReturnType<typeof sambaPlant>[] = [];
  afterEach(() => {
    for (const plant of plants.splice(0)) plant.remove();
  });
  const plant = (options: Parameters<typeof sambaPlant>[0] = {}) => {
    if (sambaMissing) throw sambaMissing;
    const created = sambaPlant(options);
    plants.push(created);
    return created;
  };

  it('passes quietly when the share folder has a file for the stream, and warns when a stream has none', async () => {
    const share = plant();
    share.write('press_1.csv', 'time,part\n');
    // The plant's second stream (Oven_2, oven_*.csv) has no file.
    const result = await validate(share.config);
    expect(result.violations).toEqual([expect.objectContaining({ level: 'warning', json_path: ['data_receiver', 0, 'streams', 1, 'file_filter'] })]);
    expect(result.violations[0]!.description).toContain('\\\\127.0.0.1\\data\\');
  });

  it('warns at shared_folder when the folder is not on the share, and at username when the login is refused', async () => {
    const missing = plant({ folder: 'not-created' });
    const notThere = await validate(missing.config);
    expect(notThere.status).toBe('passed');
    expect(notThere.violations).toEqual([expect.objectContaining({ level: 'warning', json_path: ['data_receiver', 0, 'connections', 0, 'shared_folder'] })]);
    expect(notThere.violations[0]!.description).toContain('does not exist on the share');

    const refused = plant({ connection: { password: 'not-the-password' } });
    const [login] = (await validate(refused.config)).violations;
    expect(login).toMatchObject({ level: 'warning', json_path: ['data_receiver', 0, 'connections', 0, 'username'] });
    expect(login!.description).toContain(`refused the login of "${SAMBA.user.username}"`);
  });

  it('checks a signing-only SMB 3.1.1 server and an encrypted share like any other, and names a wrong password there', async () => {
    for (const name of ['strict', 'sealed'] as const) {
      const share = plant({ share: name });
      share.write('press_1.csv', 'time,part\n');
      share.write('oven_1.csv', 'time,part\n');
      expect((await validate(share.config)).violations).toEqual([]);
    }
    const refused = plant({ share: 'strict', connection: { password: 'not-the-password', domain: 'TRIBUTARY' } });
    const [login] = (await validate(refused.config)).violations;
    expect(login).toMatchObject({ level: 'warning', json_path: ['data_receiver', 0, 'connections', 0, 'username'] });
    expect(login!.description).toMatch(/127\.0\.0\.1:4446 refused the login of "TRIBUTARY\\smbtest": wrong password, or no such user/);
  });
});
