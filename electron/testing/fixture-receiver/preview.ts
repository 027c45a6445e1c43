/** The fixture protocol's preview (shared/testing/fixture-receiver): one record per stream, its register as value. */
import type { AgentRecord } from '../../../shared/records/record.js';
import type { ReceiverPreview } from '../../agent/components/receiver-preview.js';

type FixtureReceiver = { streams: { asset: string; stream_type: string; register: number }[] };

const preview: ReceiverPreview<FixtureReceiver> = async (receiver) =>
  receiver.streams.map((s) => {
    const at = '2026-01-05T05:00:00.000000Z';
    const record: AgentRecord = {
      ...{ asset: s.asset, stream_type: s.stream_type, timestamp: at, capturetime: at },
      fieldvalues: { register: s.register },
      record_id: `${s.asset}:${s.register}`,
    };
    return { key: { asset: s.asset, stream_type: s.stream_type }, source: 'fixture', records: [record], problems: [] };
  });
export default preview;
