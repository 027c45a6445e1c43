/**
 * Everything that starts, stops (issue 51 point 3): an agent with many kinds of component (a local
 * folder of CSV files, a Samba share, an OPC UA server in this process, a Modbus server, an MQTT
 * broker, the csv, mqtt, sql (PostgreSQL) and influxdb transmits, the data-quality watch, the KPI
 * history) runs until data went through each, is stopped, then shut down; after each step nothing
 * it started may be left: no socket, watcher, worker or timer (the process's active resources, and
 * async_hooks for timers that do not keep the process alive), and no resource held by a lifecycle
 * store. Needs the Mosquitto, PostgreSQL, InfluxDB, Samba and pymodbus of scripts/ci/.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availabilityKpi } from '../../../shared/testing/kpi-fixtures.js';
import { csvOutboxRows, filePlant, waitFor } from '../../testing/file-plant.js';
import { BROKER, TestSubscriber, testClient } from '../../testing/mqtt-broker.js';
import { activeResources, moreThan, settled, steadyResources, trackResources } from '../../testing/open-resources.js';
import { requireSamba, sambaPlant } from '../../testing/samba-test-share.js';
import { SERVICE_PORT as MODBUS_PORT, plant as modbusPlant } from '../../testing/modbus/pymodbus-server.js';
import { OpcuaTestServer } from '../../testing/opcua/opcua-test-server.js';
import { SERVERS, TestDatabase, uniqueTable } from '../../testing/sql/sql-test-support.js';
import { tempDirectory } from '../../testing/test-host.js';
import { undisposedResources } from '../lifecycle/index.js';
import { assembleAgent } from './assemble-agent.js';

let plc: OpcuaTestServer;
beforeAll(async () => {
  plc = await OpcuaTestServer.start({ pkiFolder: tempDirectory('opcua-server-pki-') });
}, 60_000);
afterAll(async () => {
  await plc?.stop();
});

const INFLUX = 'http://127.0.0.1:58086';
/** A query on a connection of its own that closes with it (a pooled socket closing later would hide one left open). */
const influxQuery = (q: string) =>
  new Promise<void>((resolve, reject) => {
    const request = http.request(`${INFLUX}/query?${new URLSearchParams({ q })}`, { method: 'POST', agent: false }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`InfluxDB answered ${response.statusCode} to ${q}`))));
    });
    request.on('error', reject);
    request.end();
  });

/** A few values of unit 1 of the pymodbus plant (scripts/ci/start-modbus.sh). */
function modbusRegisters() {
  return modbusPlant()
    .values.filter((v) => v.unit === 1 && v.data_type !== 'string')
    .slice(0, 4)
    .map((v) => ({ exportname: `${v.table}_${v.address}`, table: v.table, address: v.address, data_type: v.data_type, ...(v.byte_order ? { byte_order: v.byte_order } : {}) }));
}

function configuration(plant: ReturnType<typeof filePlant>, share: ReturnType<typeof sambaPlant>, id: string, table: string) {
  const smb = { ...share.config.data_receiver[0]!, data_receiver_name: 'share', streams: [{ asset: 'Press_5', stream_type: 'cycle', file_filter: ['press_*.csv'] }] };
  const pg = SERVERS.postgresql;
  const broker = { host: '127.0.0.1', port: BROKER.port, username: BROKER.username, password: BROKER.password };
  return {
    ...plant.config,
    data_receiver: [
      ...plant.config.data_receiver,
      smb,
      {
        data_receiver_name: 'plc',
        protocol: 'opcua',
        read_mode: 'subscription',
        sampling_interval_ms: 100,
        connections: [{ host: '127.0.0.1', port: plc.port, timeout: 5 }],
        streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: [{ name: 'ns=2;s=Counter', exportname: 'counter' }] }],
      },
      {
        data_receiver_name: 'line2',
        protocol: 'modbus',
        poll_interval: 1,
        connections: [{ host: '127.0.0.1', port: MODBUS_PORT, timeout: 2 }],
        streams: [{ asset: 'Unit_1', stream_type: 'registers', unit_id: 1, modbus_registers: modbusRegisters() }],
      },
      {
        data_receiver_name: 'machines',
        protocol: 'mqtt',
        connections: [{ ...broker, client_id: `leaks-rx-${id}`, timeout: 5 }],
        streams: [{ asset: 'Press_9', stream_type: 'cycle', topic: `test/${id}/in/#`, timestamp_field: 'ts', timestamp_unit: 'ms' }],
      },
    ],
    data_transmit: [
      ...plant.config.data_transmit,
      { transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], ...broker, client_id: `leaks-tx-${id}`, topic: `test/${id}/out/{asset}/{stream_type}`, timeout: 5, poll_interval: 1 },
      { transmit_name: 'historian', transmit_type: 'sql', filter_stream: ['*'], host: '127.0.0.1', port: pg.port, username: pg.username, password: pg.password, database_type: 'postgresql', database_name: pg.database, table, layout: 'json', poll_interval: 1 },
      { transmit_name: 'grafana', transmit_type: 'influxdb', filter_stream: ['*'], url: INFLUX, database: `leaks_${id}`, poll_interval: 1 },
    ],
    data_quality: [{ filter_stream: ['*'], stuck: { after_seconds: 3, min_records: 4 }, gap: { after_seconds: 2 } }],
  };
}

describe('an agent leaves nothing behind', () => {
  it('after an operator stop no component holds a resource, and after a shutdown of the running agent the agent holds none', async () => {
    const id = crypto.randomBytes(4).toString('hex');
    const plant = filePlant();
    await requireSamba();
    const share = sambaPlant();
    const publisher = await testClient();
    const subscriber = await new TestSubscriber(`test/${id}/out/#`).start();
    const table = uniqueTable('leaks');
    await influxQuery(`CREATE DATABASE leaks_${id}`);
    const tracker = trackResources();
    const before = await steadyResources();
    const storesBefore = undisposedResources();

    const runtime = assembleAgent({ dataDirectory: tempDirectory('tributary-leaks-'), machineInfoIntervalMs: 60_000, stopTimeoutMs: 5000, allowWrite: [os.tmpdir()] });
    await runtime.init();
    expect(runtime.kpis.save(availabilityKpi().name, availabilityKpi()).status).toBe('passed');
    const idle = await steadyResources();
    const storesIdle = undisposedResources();
    const timersIdle = tracker.mark();
    const agentMade = (made = /electron\/agent\//, except?: ReadonlySet<number>) => tracker.alive(made, { ignore: /electron\/testing\//, except });
    // What the components make, as against the agent's own services that run while it is stopped
    // (flow history, machine info, the parse threads kept warm for a while).
    const components = /electron\/agent\/(receivers|transmits|transforms|parsers|pipeline|supervisor|quality|mqtt)\//;

    const saved = await runtime.saveConfig(configuration(plant, share, id, table));
    expect(saved.status, JSON.stringify(saved)).toBe('passed');
    plant.write('press_1.csv', 'time,part,force\n2026-01-05 06:00:00,1,10\n2026-01-05 06:00:01,2,10\n');
    share.write('press_1.csv', 'time,part,force\n2026-01-05 06:00:00,1,10\n');
    await waitFor(() => runtime.status().agent.services['receiver:machines']?.status === 'running', 20_000, 'the mqtt receiver');
    const now = Date.now();
    for (let i = 0; i < 3; i += 1) await publisher.publishAsync(`test/${id}/in/press`, JSON.stringify({ ts: now + i, duration_s: 5, state: 'running' }), { qos: 1 });
    plc.set('Counter', 7);
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 2, 20_000, 'the CSV rows in the csv transmit');
    await waitFor(() => csvOutboxRows(plant.outbox, 'Press_9', 'cycle').length === 3, 20_000, 'the MQTT messages in the csv transmit');
    await waitFor(() => csvOutboxRows(plant.outbox, 'Line_1', 'process').length > 0, 20_000, 'the OPC UA values in the csv transmit');
    await waitFor(() => csvOutboxRows(plant.outbox, 'Unit_1', 'registers').length > 0, 20_000, 'the Modbus values in the csv transmit');
    await waitFor(() => csvOutboxRows(plant.outbox, 'Press_5', 'cycle').length === 1, 20_000, 'the file on the SMB share in the csv transmit');
    await waitFor(() => subscriber.records().length >= 6, 20_000, 'the mqtt transmit');
    const delivered = (transmit: string) => runtime.status().last_data_transmit[transmit]?.records_sent ?? 0;
    await waitFor(() => delivered('historian') >= 7 && delivered('grafana') >= 7, 20_000, 'the sql and influxdb transmits');
    await waitFor(() => runtime.streams().some((s) => s.quality.some((f) => f.check === 'gap')), 20_000, 'a gap finding');
    expect(runtime.kpis.evaluate({ name: 'availability', machines: ['Press_9'], bin_size: 3600 }).machines).toHaveLength(1);

    expect(await runtime.stop()).toBe('stopped');
    expect(await settled(() => moreThan(idle, activeResources()))).toEqual([]);
    expect(undisposedResources() - storesIdle, 'resources still held by a lifecycle store, or subscriptions not undone, after stop').toBe(0);
    expect(await settled(() => agentMade(components, timersIdle))).toEqual([]);

    // Started again and shut down while running, as the host closes it.
    expect(await runtime.start()).toBe('running');
    await waitFor(() => runtime.status().agent.services['receiver:machines']?.status === 'running', 20_000, 'the mqtt receiver after the start');
    await runtime.dispose();
    expect(await settled(() => moreThan(before, activeResources()))).toEqual([]);
    expect(undisposedResources() - storesBefore, 'resources still held by a lifecycle store, or subscriptions not undone, after shutdown').toBe(0);
    expect(await settled(() => agentMade())).toEqual([]);
    tracker.stop();
    await subscriber.close();
    await publisher.endAsync(true);
    await influxQuery(`DROP DATABASE leaks_${id}`);
    const db = await TestDatabase.open('postgresql');
    await db.exec(`DROP TABLE IF EXISTS ${table}`);
    await db.close();
  }, 90_000);
});
