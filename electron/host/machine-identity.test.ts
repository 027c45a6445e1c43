import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { describeMachine, machineLine } from './machine-identity.js';

describe('machine identity for the start-up log', () => {
  it('describes this PC: its processor cores, architecture and memory', async () => {
    const line = await describeMachine();
    expect(line).toBeDefined();
    expect(line).toContain(`(${os.arch()})`);
    expect(line).toMatch(/\d+ cores?/);
    expect(line).toContain(`${Math.round(os.totalmem() / 1024 ** 3)} GB memory`);
  });

  it('leaves out what the firmware does not tell, and says when it is a virtual machine', () => {
    const line = machineLine({
      system: { manufacturer: 'Default string', model: 'OptiPlex 7090', virtual: true },
      cpu: { manufacturer: 'Intel', brand: 'Core™ i5-10500T', physicalCores: 6 },
      os: { distro: 'Debian GNU/Linux', release: '12', arch: 'x64' },
      memoryBytes: 16 * 1024 ** 3,
    });
    expect(line).toBe('OptiPlex 7090 (virtual machine); Intel Core™ i5-10500T, 6 cores; Debian GNU/Linux 12 (x64); 16 GB memory');
  });
});
