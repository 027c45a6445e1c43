import { describe, expect, it } from 'vitest';
import { insertReceiver, insertTransmit } from './insert-receiver.js';

describe('insertReceiver', () => {
  it('appends the template to data_receiver with a unique name', () => {
    const text = JSON.stringify({ data_receiver: [{ data_receiver_name: 'local_files' }], transforms: [], data_transmit: [] }, null, 2);
    const result = insertReceiver(text, 'localfile');
    if ('problem' in result) throw new Error(result.problem);
    const document = JSON.parse(result.text);
    expect(result.index).toBe(1);
    expect(document.data_receiver[1]).toMatchObject({ data_receiver_name: 'local_files_2', protocol: 'localfile' });
    expect(document.data_transmit).toEqual([]);
  });

  it('creates data_receiver when it is missing and refuses broken JSON', () => {
    const created = insertReceiver('{ "data_transmit": [] }', 'opcua');
    expect('problem' in created ? created.problem : JSON.parse(created.text).data_receiver[0].protocol).toBe('opcua');
    expect(insertReceiver('{ "data_receiver": [', 'sql')).toHaveProperty('problem');
  });
});

describe('insertTransmit', () => {
  it('appends the mqtt transmit template to data_transmit with a unique name, keeping the receivers', () => {
    const text = JSON.stringify({ data_receiver: [{ data_receiver_name: 'a' }], transforms: [], data_transmit: [{ transmit_name: 'unified_namespace' }] }, null, 2);
    const result = insertTransmit(text, 'mqtt');
    if ('problem' in result) throw new Error(result.problem);
    const document = JSON.parse(result.text);
    expect(result).toMatchObject({ index: 1, name: 'unified_namespace_2' });
    expect(document.data_transmit[1]).toMatchObject({ transmit_name: 'unified_namespace_2', transmit_type: 'mqtt', qos: 1 });
    expect(document.data_receiver).toEqual([{ data_receiver_name: 'a' }]);
  });
});
