import { describe, expect, it } from 'vitest';
import { SystemClock } from '../time/clock.js';
import { LogFile } from '../logging/log-file.js';
import { Logger, Redactor } from '../logging/logger.js';
import { waitFor } from '../../testing/file-plant.js';
import { tempDirectory } from '../../testing/test-host.js';
import { ConfigValidator, INLINE_VALUES } from './config-validator.js';

const logger = () => new Logger(new LogFile(`${tempDirectory()}/agent_core.log`, { maxBytes: 1e6, keep: 1 }), new Redactor(), new SystemClock(), 'test');

/** A configuration too big to validate inline: one receiver with many OPC UA tags (`missing`: one without exportname). */
function bigConfiguration(tags: number, missing?: number) {
  return {
    data_receiver: [
      {
        data_receiver_name: 'plc',
        protocol: 'opcua',
        connections: [{ host: '127.0.0.1', port: 4840 }],
        streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: Array.from({ length: tags }, (_, i) => (i === missing ? { name: `ns=2;s=T${i}` } : { name: `ns=2;s=T${i}`, exportname: `t${i}` })) }],
      },
    ],
    transforms: [],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'] }],
  };
}

describe('configuration validation thread', () => {
  it('ends after a while without documents and validates the next big one as before', async () => {
    const validator = new ConfigValidator(logger(), undefined, 100);
    const document = bigConfiguration(INLINE_VALUES, 7);
    try {
      const first = await validator.validate(document);
      expect(validator.threadRunning).toBe(true); // validated in the thread, not inline
      expect(first.violations.map((v) => v.json_path.join('.'))).toContain('data_receiver.0.streams.0.opcua_tags.7.exportname');
      await waitFor(() => !validator.threadRunning, 10_000, 'the idle validation thread to end');
      const again = await validator.validate(document);
      expect(again.violations).toEqual(first.violations);
      const valid = await validator.validate(bigConfiguration(INLINE_VALUES), { wantConfig: true });
      expect(valid.violations.filter((v) => v.level === 'error')).toEqual([]);
      expect(valid.config?.data_receiver).toHaveLength(1);
    } finally {
      await validator.close();
    }
  });
});
