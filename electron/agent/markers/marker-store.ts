import { formatSpecTimestamp } from '../../../shared/api/envelope.js';
import type { ComponentType, Marker } from '../../../shared/api/resources.js';
import type { MarkerReporter, StreamKey } from '../components/contract.js';
import type { Clock } from '../time/clock.js';

export type { MarkerReporter } from '../components/contract.js';

const MAX_PER_STREAM = 50;

/**
 * Current warning and error markers per stream. A marker is identified by component, stream and
 * category: raising it again refreshes its message and time instead of piling up copies. Markers are
 * kept per stream (and indexed by component), so that raising, clearing and reading cost what the
 * streams involved hold, not what all of thousands of streams hold.
 */
export class MarkerStore {
  /** Per stream (asset\0stream_type): markers by component\0category, oldest first. */
  private readonly byStream = new Map<string, Map<string, Marker>>();
  /** Per component: the streams it has markers on. */
  private readonly byComponent = new Map<string, Set<string>>();

  constructor(private readonly clock: Clock) {}

  reporter(component: string, componentType: ComponentType): MarkerReporter {
    return {
      raise: (streams, level, category, said) => {
        const { text: message, code, params } = said;
        const timestamp = formatSpecTimestamp(this.clock.nowMicros());
        for (const s of streams) {
          const streamKey = `${s.asset}\0${s.stream_type}`;
          let markers = this.byStream.get(streamKey);
          if (!markers) this.byStream.set(streamKey, (markers = new Map()));
          const key = `${component}\0${category}`;
          markers.delete(key); // re-insert so that iteration order is newest last
          markers.set(key, { component, component_type: componentType, asset: s.asset, stream_type: s.stream_type, category, timestamp, level, message, code, params });
          let owned = this.byComponent.get(component);
          if (!owned) this.byComponent.set(component, (owned = new Set()));
          owned.add(streamKey);
          // Keep the newest MAX_PER_STREAM of a stream.
          for (const oldest of markers.keys()) {
            if (markers.size <= MAX_PER_STREAM) break;
            markers.delete(oldest);
          }
        }
      },
      clear: (category, streams) => {
        const owned = this.byComponent.get(component);
        if (!owned) return;
        const keys = streams === undefined ? [...owned] : streams.map((s) => `${s.asset}\0${s.stream_type}`).filter((k) => owned.has(k));
        for (const streamKey of keys) {
          const markers = this.byStream.get(streamKey);
          if (!markers) continue;
          for (const [key, marker] of markers) if (marker.component === component && (category === undefined || marker.category === category)) markers.delete(key);
          if (![...markers.values()].some((m) => m.component === component)) owned.delete(streamKey);
          if (markers.size === 0) this.byStream.delete(streamKey);
        }
      },
    };
  }

  /** Markers of one stream, newest first. */
  forStream(asset: string, streamType: string): Marker[] {
    return [...(this.byStream.get(`${asset}\0${streamType}`)?.values() ?? [])].reverse();
  }

  /** Current markers of one component at one level, newest first (the service health). */
  ofComponent(component: string, componentType: ComponentType, level: Marker['level']): Marker[] {
    const out: Marker[] = [];
    for (const streamKey of this.byComponent.get(component) ?? [])
      for (const marker of this.byStream.get(streamKey)?.values() ?? []) if (marker.component === component && marker.component_type === componentType && marker.level === level) out.push(marker);
    // Spec timestamps sort as text.
    return out.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
  }

  clearAll(): void {
    this.byStream.clear();
    this.byComponent.clear();
  }

  /** Forgets the markers of streams that are no longer configured. */
  retainStreams(streams: readonly StreamKey[]): void {
    const kept = new Set(streams.map((s) => `${s.asset}\0${s.stream_type}`));
    for (const streamKey of [...this.byStream.keys()]) {
      if (kept.has(streamKey)) continue;
      this.byStream.delete(streamKey);
      for (const owned of this.byComponent.values()) owned.delete(streamKey);
    }
  }
}
