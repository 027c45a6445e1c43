import type { AgentRecord } from '../../../shared/records/record.js';
import { waitFor } from '../file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../test-host.js';

export interface PlantReceiver {
  connection: Record<string, unknown>;
  streams: { asset: string; stream_type: string; opcua_tags: { name: string; exportname: string; namespace_index?: number }[] }[];
  read_mode?: 'subscription' | 'polling';
  sampling_interval_ms?: number;
  poll_interval?: number;
  history_backfill?: boolean;
  history_backfill_max_hours?: number;
}

/** An agent (real host, HTTP API) with one opcua receiver and a csv transmit; collects committed records. */
export async function startAgent(receiver: PlantReceiver, dataDirectory = tempDirectory('tributary-opcua-')) {
  const server = await startTestServer({ dataDirectory, stopTimeoutMs: 10_000 });
  const records: AgentRecord[] = [];
  server.host.runtime.tapRecords((_receiver, _stream, batch) => records.push(...batch));
  const config = {
    data_receiver: [
      {
        data_receiver_name: 'plc',
        protocol: 'opcua',
        read_mode: receiver.read_mode ?? 'subscription',
        sampling_interval_ms: receiver.sampling_interval_ms ?? 100,
        poll_interval: receiver.poll_interval ?? 1,
        ...(receiver.history_backfill === undefined ? {} : { history_backfill: receiver.history_backfill }),
        ...(receiver.history_backfill_max_hours === undefined ? {} : { history_backfill_max_hours: receiver.history_backfill_max_hours }),
        connections: [{ timeout: 5, ...receiver.connection }],
        streams: receiver.streams,
      },
    ],
    transforms: [],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: `${dataDirectory}/outbox`, poll_interval: 1 }],
  };
  const saved = await server.call('POST', '/v1/config', config);
  if (!saved.json.success) throw new Error(`configuration refused: ${JSON.stringify(saved.json)}`);
  return {
    server,
    dataDirectory,
    records,
    /** Records of one stream whose field `column` is not null. */
    valuesOf: (column: string) => records.filter((r) => r.fieldvalues[column] !== null && r.fieldvalues[column] !== undefined),
    markers: async (category?: string) => {
      const streams = (await server.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string; level: string }[] }[];
      return streams.flatMap((s) => s.markers).filter((m) => category === undefined || m.category === category);
    },
    marker: (category: string, ms = 20_000) =>
      waitFor(async () => {
        const streams = (await server.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string; level: string }[] }[];
        return streams.flatMap((s) => s.markers).find((m) => m.category === category);
      }, ms, `marker ${category}`),
    serviceStatus: async () => (await server.call('GET', '/v1/status')).json.response.agent.services['receiver:plc']?.status as string,
    close: (): Promise<void> => server.close(),
  };
}
export type Agent = Awaited<ReturnType<typeof startAgent>>;
export type { TestServer };
