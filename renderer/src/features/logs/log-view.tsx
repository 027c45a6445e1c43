import { useLayoutEffect, useRef, useState } from 'react';
import type { LogLine } from './log-line.js';

const ROW_HEIGHT = 22;
const OVERSCAN = 20;

/**
 * Renders only the rows in view (fixed row height), so 100,000 lines scroll smoothly. In follow
 * mode it stays pinned to the bottom while the operator has not scrolled up.
 */
export function LogView({ lines, follow }: { lines: readonly LogLine[]; follow: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(480);
  const pinned = useRef(true);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const element = box.current;
    if (element && follow && pinned.current) {
      element.scrollTop = element.scrollHeight;
      setScrollTop(element.scrollTop);
    }
  }, [lines, follow]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(lines.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  return (
    <div
      ref={box}
      className="log-view"
      role="log"
      aria-label="Log lines"
      tabIndex={0}
      onScroll={(event) => {
        const element = event.currentTarget;
        setScrollTop(element.scrollTop);
        pinned.current = element.scrollTop + element.clientHeight >= element.scrollHeight - ROW_HEIGHT * 2;
      }}
    >
      <div style={{ height: lines.length * ROW_HEIGHT, position: 'relative' }}>
        {lines.slice(first, last).map((line, i) => (
          <div key={first + i} className={`log-row log-${line.level.toLowerCase()}`} data-level={line.level} style={{ top: (first + i) * ROW_HEIGHT, height: ROW_HEIGHT }}>
            <span className="log-time">{line.timestamp.slice(0, 23)}</span>
            <span className="log-level">{line.level}</span>
            <span className="log-component">{line.component}</span>
            <span className="log-message" title={line.raw}>
              {line.message}
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}
