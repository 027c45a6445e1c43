import { useLayoutEffect, useRef, useState } from 'react';
import { LocalTime } from '../../components/local-time.js';
import type { LogLine } from './log-line.js';

const ROW_HEIGHT = 22;
const OVERSCAN = 20;

/**
 * Renders only the rows in view (fixed row height), so 100,000 lines scroll smoothly. With Follow
 * it opens at the newest line and stays pinned there as lines arrive, until the operator scrolls
 * up; scrolling back to the end (or Follow again) pins it again.
 */
export function LogView({ lines, follow }: { lines: readonly LogLine[]; follow: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(480);
  const [pinned, setPinned] = useState(true);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    setHeight(element.clientHeight);
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Follow switched on: back to the newest line.
  useLayoutEffect(() => {
    if (follow) setPinned(true);
  }, [follow]);

  useLayoutEffect(() => {
    const element = box.current;
    if (element && follow && pinned) {
      element.scrollTop = element.scrollHeight;
      setScrollTop(element.scrollTop);
    }
  }, [lines, follow, pinned, height]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(lines.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  return (
    <div className="log-frame">
    <div
      ref={box}
      className="log-view"
      role="log"
      aria-label="Log lines"
      data-pinned={follow && pinned ? 'true' : 'false'}
      tabIndex={0}
      onScroll={(event) => {
        const element = event.currentTarget;
        setScrollTop(element.scrollTop);
        setPinned(element.scrollTop + element.clientHeight >= element.scrollHeight - ROW_HEIGHT * 2);
      }}
    >
      <div style={{ height: lines.length * ROW_HEIGHT, position: 'relative' }}>
        {lines.slice(first, last).map((line, i) => (
          <div key={first + i} className={`log-row log-${line.level.toLowerCase()}`} data-level={line.level} style={{ top: (first + i) * ROW_HEIGHT, height: ROW_HEIGHT }}>
            {line.timestamp ? <LocalTime className="log-time" value={line.timestamp} millis /> : <span className="log-time" />}
            <span className="log-level">{line.level}</span>
            <span className="log-component">{line.component}</span>
            <span className="log-message" title={line.raw}>
              {line.message}
            </span>
          </div>
        ))}
      </div>
    </div>
      {follow && !pinned && (
        <button type="button" className="button small log-jump" onClick={() => setPinned(true)}>
          Newest line ↓
        </button>
      )}
    </div>
  );
}
