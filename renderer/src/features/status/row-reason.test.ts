import { describe, expect, it } from 'vitest';
import type { Marker } from '../../../../shared/api/resources.js';
import { setConsoleLocale } from '../../format/locale.js';
import { rowReason } from './row-reason.js';

const marker = (over: Partial<Marker>): Marker => ({ component: 'plant_opcua', component_type: 'Receiver', asset: 'Oven', stream_type: 'temp', category: 'connection', timestamp: '2026-11-29 06:00:00.000000', level: 'error', message: 'The OPC UA server opc.tcp://plc:4840 does not answer.', ...over });
const longUploadError = 'The upload to https://cloud.example.com was refused with HTTP 502 Bad Gateway. The proxy said: <html><body>upstream timed out while reading the response header from the upstream server</body></html>';
const stuck = { transmit: 'cloud', waiting: 1832, reason: longUploadError };

describe('one reason per data-flow row', () => {
  it("puts the row's own problem before the transmit's upload error", () => {
    setConsoleLocale('en-US');
    expect(rowReason([marker({})], stuck)).toEqual({ kind: 'own', text: 'The OPC UA server opc.tcp://plc:4840 does not answer.' });
    expect(rowReason([marker({ level: 'warning', category: 'no_transmit', component: 'pipeline', component_type: 'Transmit', message: 'No transmit sends Oven:temp.' })], undefined)?.text).toBe('No transmit sends Oven:temp.');
  });

  it('cuts a long upload error to its first sentence on the row, whole on hover', () => {
    setConsoleLocale('en-US');
    const reason = rowReason([], stuck)!;
    expect(reason.text).toBe('Not getting out: 1,832 waiting at cloud: The upload to https://cloud.example.com was refused with HTTP 502 Bad Gateway.');
    expect(reason.detail).toBe(longUploadError);
    // A transmit's own error markers are not the row's own problem.
    expect(rowReason([marker({ component_type: 'Transmit', component: 'cloud' })], stuck)?.kind).toBe('delivery');
    expect(rowReason([], undefined)).toBeUndefined();
  });
});
