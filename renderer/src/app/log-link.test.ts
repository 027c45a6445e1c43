import { describe, expect, it } from 'vitest';
import { parseAgentTime } from '../format/time.js';
import { logFiltersFromHash, logsHref, serviceLogHref } from './log-link.js';

describe('links into Logs', () => {
  it('carries component, level and time through the address and back', () => {
    const href = logsHref({ component: 'transmit:cloud', level: 'WARNING', until: '2026-01-05T06:01:00.000Z' });
    expect(href).toBe('#/logs?component=transmit%3Acloud&level=WARNING&until=2026-01-05T06%3A01%3A00.000Z');
    expect(logFiltersFromHash(href)).toEqual({ component: 'transmit:cloud', level: 'WARNING', until: '2026-01-05T06:01:00.000Z' });
    expect(logFiltersFromHash('#/logs')).toBeUndefined();
    expect(logFiltersFromHash('#/status?level=ERROR')).toBeUndefined();
    expect(logFiltersFromHash('#/logs?level=LOUD')?.level).toBeUndefined();
  });

  it("links a service's problem to its warnings and errors up to a minute after it", () => {
    const href = serviceLogHref('receiver:plant', '2026-01-05 06:00:00.000000', parseAgentTime);
    expect(logFiltersFromHash(href)).toEqual({ component: 'receiver:plant', level: 'WARNING', until: '2026-01-05T06:01:00.000Z' });
    expect(logFiltersFromHash(serviceLogHref('receiver:plant', undefined, parseAgentTime))?.until).toBeUndefined();
  });
});
