import { formatSpecTimestamp } from '../../../shared/api/envelope.js';
import type { ComponentType, Marker } from '../../../shared/api/resources.js';
import type { Clock } from '../clock.js';

export interface StreamKey {
  asset: string;
  stream_type: string;
}

/** What a component uses to raise and clear markers on the streams it works on. */
export interface MarkerReporter {
  /** Raises (or refreshes) a marker of this component on each given stream. */
  raise(streams: readonly StreamKey[], level: Marker['level'], category: string, message: string): void;
  /** Clears this component's markers of a category (all categories when omitted). */
  clear(category?: string, streams?: readonly StreamKey[]): void;
}

const MAX_PER_STREAM = 50;

/**
 * Current warning and error markers per stream. A marker is identified by component, stream and
 * category: raising it again refreshes its message and time instead of piling up copies.
 */
export class MarkerStore {
  private readonly markers = new Map<string, Marker>();

  constructor(private readonly clock: Clock) {}

  reporter(component: string, componentType: ComponentType): MarkerReporter {
    return {
      raise: (streams, level, category, message) => {
        const timestamp = formatSpecTimestamp(this.clock.nowMicros());
        for (const s of streams) {
          const key = JSON.stringify([component, s.asset, s.stream_type, category]);
          this.markers.delete(key); // re-insert so that iteration order is newest last
          this.markers.set(key, { component, component_type: componentType, asset: s.asset, stream_type: s.stream_type, category, timestamp, level, message });
        }
        this.trim();
      },
      clear: (category, streams) => {
        for (const [key, marker] of this.markers)
          if (
            marker.component === component &&
            (category === undefined || marker.category === category) &&
            (streams === undefined || streams.some((s) => s.asset === marker.asset && s.stream_type === marker.stream_type))
          )
            this.markers.delete(key);
      },
    };
  }

  /** Markers of one stream, newest first. */
  forStream(asset: string, streamType: string): Marker[] {
    return [...this.markers.values()].filter((m) => m.asset === asset && m.stream_type === streamType).reverse();
  }

  /** Current markers of one component at one level, newest first (the service health). */
  ofComponent(component: string, componentType: ComponentType, level: Marker['level']): Marker[] {
    return [...this.markers.values()].filter((m) => m.component === component && m.component_type === componentType && m.level === level).reverse();
  }

  clearAll(): void {
    this.markers.clear();
  }

  private trim(): void {
    const perStream = new Map<string, number>();
    for (const [key, marker] of [...this.markers].reverse()) {
      const stream = `${marker.asset}:${marker.stream_type}`;
      const count = (perStream.get(stream) ?? 0) + 1;
      perStream.set(stream, count);
      if (count > MAX_PER_STREAM) this.markers.delete(key);
    }
  }
}
