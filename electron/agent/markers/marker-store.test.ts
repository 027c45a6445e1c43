/**
 * A marker carries a code and params (issue 57): its own when the component says it by code, else
 * marker.<category> with the words as params.text, which the console shows under a translated
 * headline.
 */
import { describe, expect, it } from 'vitest';
import { say } from '../../../shared/config/message.js';
import type { Clock } from '../time/clock.js';
import { MarkerStore } from './marker-store.js';

const clock: Clock = { nowMicros: () => 1_767_600_000_000_000n } as Clock;
const stream = { asset: 'Press_1', stream_type: 'cycle' };

describe('markers with codes', () => {
  it('keep the code and params of a message said by code, a message inside it too', () => {
    const store = new MarkerStore(clock);
    const said = say('localfile.folder_unavailable', '{problem}. Tributary keeps looking every {seconds} s.', {
      problem: say('localfile.folder_missing', 'The folder {folder} does not exist', { folder: '/data/press' }),
      seconds: 5,
    });
    store.reporter('plant_csv', 'Receiver').raise([stream], 'error', 'source_unavailable', said);
    expect(store.forStream(stream.asset, stream.stream_type)).toMatchObject([
      { category: 'source_unavailable', code: 'localfile.folder_unavailable', message: 'The folder /data/press does not exist. Tributary keeps looking every 5 s.', params: said.params },
    ]);
  });
});
