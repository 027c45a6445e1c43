import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./start-services.sh', import.meta.url));

/**
 * Runs start-services.sh in a copy with stand-in service scripts, and stand-ins for dpkg-query,
 * apt-get and id on PATH: what it would install on a machine with `installed` packages, as `uid`.
 */
function run(options: { installed: string[]; uid: number; services: Record<string, string> }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-services-'));
  fs.mkdirSync(path.join(root, 'ci'));
  fs.mkdirSync(path.join(root, 'bin'));
  fs.copyFileSync(SCRIPT, path.join(root, 'start-services.sh'));
  const log = path.join(root, 'calls.log');
  for (const [name, packages] of Object.entries(options.services))
    fs.writeFileSync(path.join(root, 'ci', name), `#!/usr/bin/env bash\n# A service for the test.\n# Debian packages: ${packages}\necho "ran ${name}" >>"${log}"\n`);
  const stub = (name: string, body: string) => fs.writeFileSync(path.join(root, 'bin', name), `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
  stub('dpkg-query', `for p in ${options.installed.join(' ')}; do [ "\${@: -1}" = "$p" ] && { printf installed; exit 0; }; done; exit 1`);
  stub('apt-get', `echo "apt-get $*" >>"${log}"`);
  stub('id', `echo ${options.uid}`);
  const result = spawnSync('bash', [path.join(root, 'start-services.sh')], { encoding: 'utf8', env: { ...process.env, PATH: `${path.join(root, 'bin')}:${process.env.PATH}` } });
  const calls = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [];
  fs.rmSync(root, { recursive: true, force: true });
  return { status: result.status, stderr: result.stderr, calls };
}

const services = { 'start-alpha.sh': 'alpha-server alpha-client', 'start-beta.sh': 'beta', 'test-tools.sh': 'tool alpha-client' };

describe('npm run services', () => {
  it('installs what is missing with one apt-get update, then runs every script', () => {
    const { status, calls } = run({ installed: ['alpha-client', 'tool'], uid: 0, services });
    expect(status).toBe(0);
    expect(calls).toEqual([
      'apt-get update -qq',
      'apt-get install -y -qq --no-install-recommends alpha-server beta',
      'ran start-alpha.sh',
      'ran start-beta.sh',
      'ran test-tools.sh',
    ]);
  });

  it('asks apt-get nothing when everything is installed', () => {
    const { status, calls } = run({ installed: ['alpha-server', 'alpha-client', 'beta', 'tool'], uid: 1000, services });
    expect(status).toBe(0);
    expect(calls).toEqual(['ran start-alpha.sh', 'ran start-beta.sh', 'ran test-tools.sh']);
  });

  it('names what is missing and starts nothing when it may not install it', () => {
    const { status, stderr, calls } = run({ installed: ['alpha-server', 'alpha-client', 'tool'], uid: 1000, services });
    expect(status).toBe(1);
    expect(stderr).toMatch(/these Debian packages are missing: beta\. Run npm run services as root/);
    expect(calls).toEqual([]);
  });

  it('names the packages of every real service script', () => {
    const folder = fileURLToPath(new URL('./ci/', import.meta.url));
    const packages = fs.readdirSync(folder).flatMap((name) => /^# Debian packages: (.+)$/m.exec(fs.readFileSync(path.join(folder, name), 'utf8'))?.[1]?.split(' ') ?? [`(none in ${name})`]);
    expect(packages.sort()).toEqual(['chromium', 'curl', 'influxdb', 'mariadb-client', 'mariadb-server', 'mosquitto', 'mosquitto-clients', 'openssl', 'openssl', 'postgresql', 'python3-bson', 'python3-cryptography', 'python3-lxml', 'python3-openpyxl', 'python3-pandas', 'python3-prometheus-client', 'python3-pymodbus', 'samba', 'smbclient']);
  });
});
