import { describe, expect, it } from 'vitest';
import { undisposedResources } from './census.js';
import { Listeners } from './listeners.js';

describe('Listeners', () => {
  it('calls its subscribers in order until they unsubscribe, and counts each subscription until then', () => {
    const before = undisposedResources();
    const queued = new Listeners<[transmit: string]>();
    const heard: string[] = [];
    const first = (transmit: string) => heard.push(`first ${transmit}`);
    const unsubscribeFirst = queued.subscribe(first);
    queued.subscribe(first);
    const unsubscribeSecond = queued.subscribe((transmit) => heard.push(`second ${transmit}`));
    expect(queued.size).toBe(2);
    expect(undisposedResources() - before).toBe(2);
    queued.emit('archive');
    unsubscribeFirst();
    unsubscribeFirst();
    queued.emit('cloud');
    expect(heard).toEqual(['first archive', 'second archive', 'second cloud']);
    expect(undisposedResources() - before).toBe(1);
    unsubscribeSecond();
    expect(undisposedResources()).toBe(before);
  });

  it('clear drops every subscription and its count', () => {
    const before = undisposedResources();
    const changes = new Listeners<[area: string, resolved: boolean]>();
    const unsubscribe = changes.subscribe(() => undefined);
    changes.subscribe(() => undefined);
    changes.clear();
    unsubscribe();
    expect(changes.size).toBe(0);
    expect(undisposedResources()).toBe(before);
  });
});
