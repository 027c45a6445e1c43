import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../testing/config-fixtures.js';
import { expandTopic, publishTopicProblem, topicFilterProblem, topicFiltersOverlap, topicMatches } from './mqtt-topics.js';
import { validateConfiguration } from './validate.js';

type Doc = Record<string, any>;

function withReceiver(connection: Record<string, unknown> = {}, streams: Record<string, unknown>[] = [{}], extra: Record<string, unknown> = {}) {
  const doc = structuredClone(specExampleConfiguration()) as Doc;
  doc.data_receiver.push({
    data_receiver_name: 'broker',
    protocol: 'mqtt',
    connections: [{ host: '127.0.0.1', port: 1883, ...connection }],
    streams: streams.map((s, i) => ({ asset: 'Press_1', stream_type: `s${i}`, topic: `plant1/press1/s${i}`, ...s })),
    ...extra,
  });
  return validateConfiguration(doc).violations.filter((v) => v.json_path[0] === 'data_receiver' && v.json_path[1] === 1);
}

function withTransmit(transmit: Record<string, unknown>) {
  const doc = structuredClone(specExampleConfiguration()) as Doc;
  doc.data_transmit.push({ transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], host: '127.0.0.1', port: 1883, topic: 'plant1/{asset}/{stream_type}', ...transmit });
  return validateConfiguration(doc).violations.filter((v) => v.json_path[0] === 'data_transmit' && v.json_path[1] === 1);
}

describe('mqtt topics', () => {
  it.each(['a/b/c', 'a/+/c', 'a/#', '#', '+', '+/+', 'a//b', '$share/group/a/+/c', '$SYS/#'])('accepts the filter %j', (filter) => {
    expect(topicFilterProblem(filter)).toBeUndefined();
  });

  it.each(['a/#/c', 'a/b#', 'a+/b', 'sport/tennis+', '$share//a', '$share/g+/a', '$share/g'])('refuses the filter %j', (filter) => {
    expect(topicFilterProblem(filter)).toBeDefined();
  });

  it.each([
    ['a/+/c', 'a/b/c', true],
    ['a/+/c', 'a/b/d', false],
    ['a/#', 'a', true],
    ['a/#', 'a/b/c', true],
    ['a/+', 'a/b/c', false],
    ['#', '$SYS/load', false],
    ['$SYS/#', '$SYS/load', true],
    ['$share/g/a/+', 'a/x', true],
    ['a//b', 'a//b', true],
  ])('matches %j against %j: %s', (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected);
  });

  it.each([
    ['a/+/c', 'a/b/#', true],
    ['a/b', 'a/c', false],
    ['a/+', 'a/b/c', false],
    ['#', 'x/y', true],
    ['a/b', 'a/b', true],
  ])('knows whether %j and %j overlap: %s', (a, b, expected) => {
    expect(topicFiltersOverlap(a, b)).toBe(expected);
  });

  it('replaces the placeholders, keeping the levels of the topic', () => {
    expect(expandTopic('plant1/{asset}/{stream_type}', 'Press_1', 'cycle')).toBe('plant1/Press_1/cycle');
    expect(expandTopic('plant1/{asset}', 'Line 1/Press#2+', 'x')).toBe('plant1/Line 1_Press_2_');
    expect(expandTopic('plant1/all', 'A', 'b')).toBe('plant1/all');
  });

  it.each([
    ['plant1/{machine}', 'not a placeholder'],
    ['plant1/{asset', 'unmatched'],
    ['plant1/+/x', 'wildcards'],
    ['$SYS/x', 'belong to the broker'],
  ])('refuses the publish topic %j', (topic, says) => {
    expect(publishTopicProblem(topic)).toContain(says);
  });
});

describe('mqtt receiver rules', () => {
  it('accepts a plain receiver and one with every option', () => {
    expect(withReceiver()).toEqual([]);
    expect(
      withReceiver({ connection_name: 'uns', tls: true, ca_file: '/etc/ca.pem', username: 'u', password: 'p', client_id: 'edge-1', mqtt_version: '3.1.1' }, [
        { topic: 'plant1/+/press/#', connection: 'uns', topic_field: 'topic', timestamp_field: 'ts', timestamp_unit: 'ms' },
        { topic: 'plant1/x/temp', payload_format: 'value', value_field: 'temperature', connection: 'uns' },
        { topic: 'plant1/y/z', timestamp_field: 'time', timestamp_format: '%Y-%m-%d %H:%M:%S', timezone: 'Europe/Berlin' },
      ]),
    ).toEqual([]);
  });

  it('reports a bad topic filter, an unknown connection and clashing columns at their fields', () => {
    const violations = withReceiver({}, [{ topic: 'plant1/#/x', connection: 'nope', topic_field: 'timestamp' }]);
    const paths = violations.map((v) => v.json_path.slice(4).join('.')).sort();
    expect(paths).toEqual(['connection', 'topic', 'topic_field']);
    expect(violations.every((v) => v.level === 'error')).toBe(true);
  });

  it('refuses format and unit together, unknown directives and zones', () => {
    const violations = withReceiver({}, [{ timestamp_field: 'ts', timestamp_format: '%Y %Q', timestamp_unit: 's', timezone: 'Mars/Base' }]);
    expect(violations.map((v) => v.json_path[4]).sort()).toEqual(['timestamp_format', 'timestamp_unit', 'timezone']);
  });

  it('warns when two streams of one broker can get the same messages', () => {
    const [violation] = withReceiver({}, [{ topic: 'plant1/+/temp' }, { topic: 'plant1/press1/#' }]);
    expect(violation).toMatchObject({ level: 'warning', json_path: ['data_receiver', 1, 'streams', 1, 'topic'] });
  });

  it('refuses two connections with one client_id on one broker, and a password without TLS to another host', () => {
    const violations = withReceiver({ client_id: 'same' }, [{}], {});
    expect(violations).toEqual([]);
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    doc.data_receiver.push({
      data_receiver_name: 'broker',
      protocol: 'mqtt',
      connections: [
        { host: 'broker.plant', port: 1883, client_id: 'same', username: 'u', password: 'p' },
        { host: 'broker.plant', port: 1883, client_id: 'same', connection_name: 'b' },
      ],
      streams: [{ asset: 'A', stream_type: 'b', topic: 'x' }],
    });
    const found = validateConfiguration(doc).violations.filter((v) => v.json_path[1] === 1);
    expect(found.map((v) => [v.level, v.json_path.slice(2).join('.')])).toEqual([
      ['warning', 'connections.0.tls'],
      ['error', 'connections.1.client_id'],
    ]);
  });
});

describe('mqtt transmit rules', () => {
  it('accepts a transmit with placeholders and defaults filled in', () => {
    expect(withTransmit({})).toEqual([]);
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    doc.data_transmit.push({ transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], host: 'b', port: 1883, topic: 't' });
    const parsed = validateConfiguration(doc).config!.data_transmit[1]!;
    expect(parsed).toMatchObject({ qos: 1, retain: false, message_format: 'record', timeout: 120, max_request_size_bytes: 262_144, mqtt_version: '5', tls: false, reject_unauthorized: true });
  });

  it('requires host, port, topic and filter_stream, and keeps port and size in range', () => {
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    doc.data_transmit.push({ transmit_name: 'uns', transmit_type: 'mqtt' });
    const missing = validateConfiguration(doc).violations.filter((v) => v.json_path[1] === 1).map((v) => v.json_path[2]);
    expect(missing).toEqual(expect.arrayContaining(['host', 'port', 'topic', 'filter_stream']));
    const out = withTransmit({ port: 70_000, max_request_size_bytes: 5_000_000 });
    expect(out.map((v) => v.json_path[2]).sort()).toEqual(['max_request_size_bytes', 'port']);
  });

  it('refuses unknown placeholders and fields that would overwrite the record', () => {
    const violations = withTransmit({ topic: 'plant1/{line}/{asset}', additional_fields: { site: 'P1', record_id: 'x' } });
    expect(violations.map((v) => v.json_path.slice(2).join('.')).sort()).toEqual(['additional_fields.record_id', 'topic']);
    expect(violations.find((v) => v.json_path[2] === 'topic')!.description).toContain('"{line}" is not a placeholder');
  });

  it('warns about qos 0, MQTT 3.1.1 and accepting any certificate', () => {
    const violations = withTransmit({ qos: 0, mqtt_version: '3.1.1', tls: true, reject_unauthorized: false });
    expect(violations.map((v) => [v.level, v.json_path[2]])).toEqual([
      ['warning', 'mqtt_version'],
      ['warning', 'qos'],
      ['warning', 'reject_unauthorized'],
    ]);
  });

  it('refuses a second transmit with the same name', () => {
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    const uns = { transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], host: 'b', port: 1883, topic: 't' };
    doc.data_transmit.push(uns, { ...uns });
    expect(validateConfiguration(doc).violations).toContainEqual(expect.objectContaining({ level: 'error', json_path: ['data_transmit', 2, 'transmit_name'] }));
  });
});

describe('Sparkplug B settings', () => {
  it('a sparkplug_b transmit needs group_id and edge_node_id instead of topic, each one topic level', () => {
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    doc.data_transmit.push({ transmit_name: 'spb', transmit_type: 'mqtt', filter_stream: ['*'], host: 'b', port: 1883, payload_format: 'sparkplug_b' });
    const paths = validateConfiguration(doc).violations.map((v) => v.json_path.slice(1).join('.'));
    expect(paths.sort()).toEqual(['1.edge_node_id', '1.group_id']);
    expect(withTransmit({ topic: undefined, payload_format: 'sparkplug_b', group_id: 'Plant1', edge_node_id: 'edge-1', primary_host_id: 'scada' })).toEqual([]);
    const bad = withTransmit({ topic: undefined, payload_format: 'sparkplug_b', group_id: 'Plant/1', edge_node_id: 'edge+1' });
    expect(bad.map((v) => v.json_path[2]).sort()).toEqual(['edge_node_id', 'group_id']);
    expect(bad[0]!.description).toContain('one topic level');
  });

  it('a JSON transmit still needs topic, and says which settings only Sparkplug uses (and the other way round)', () => {
    expect(withTransmit({ topic: undefined }).map((v) => [v.level, v.json_path[2]])).toEqual([['error', 'topic']]);
    expect(withTransmit({ group_id: 'Plant1' }).map((v) => [v.level, v.json_path[2]])).toEqual([['warning', 'group_id']]);
    const ignored = withTransmit({ payload_format: 'sparkplug_b', group_id: 'P', edge_node_id: 'e', additional_fields: { site: 'P1' } });
    expect(ignored.map((v) => [v.level, v.json_path[2]]).sort()).toEqual([
      ['warning', 'additional_fields'],
      ['warning', 'topic'],
    ]);
  });

  it('a sparkplug_b stream reads a Sparkplug topic of data messages', () => {
    const ok = ['spBv1.0/Line3/DDATA/edge-9/Mixer_3', 'spBv1.0/Line3/+/edge-9/#', 'spBv1.0/#', 'spBv1.0/Line3/NDATA/edge-9'];
    for (const topic of ok) expect(withReceiver({}, [{ topic, payload_format: 'sparkplug_b' }]), topic).toEqual([]);
    const bad = withReceiver({}, [
      { topic: 'plant1/line3/#', payload_format: 'sparkplug_b' },
      { topic: 'spBv1.0/Line3/DBIRTH/edge-9/Mixer_3', payload_format: 'sparkplug_b' },
    ]);
    expect(bad.map((v) => v.description)).toEqual([expect.stringContaining('starts with spBv1.0/'), expect.stringContaining('not DBIRTH')]);
  });
});
