import { text } from '../../i18n/language.js';
import { useLayoutEffect, useRef, useState } from 'react';
import { LocalTime } from '../../components/local-time.js';
import type { LogLine } from './log-line.js';
import { ROW_HEIGHT, rowLayout } from './row-layout.js';

const OVERSCAN = 20;

/**
 * Renders only the rows in view, so 100,000 lines scroll smoothly. A click on a row expands it: the
 * whole line wraps (a stack trace, a long path) and the row grows; another click folds it. With Follow
 * it opens at the newest line and stays pinned there as lines arrive, until the operator scrolls up;
 * scrolling back to the end (or Follow again) pins it again. Older lines put on top keep the rows
 * in view where they were.
 */
export function LogView({ lines, follow }: { lines: readonly LogLine[]; follow: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(480);
  const [pinned, setPinned] = useState(true);
  /** Expanded lines (by their text) and their measured height. */
  const [expanded, setExpanded] = useState<ReadonlyMap<string, number>>(new Map());
  const rows = useRef(new Map<string, HTMLDivElement>());
  const previous = useRef<{ first: string | undefined; length: number }>({ first: undefined, length: 0 });

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

  const layout = rowLayout(lines, expanded);

  useLayoutEffect(() => {
    const element = box.current;
    const before = previous.current;
    previous.current = { first: lines[0]?.raw, length: lines.length };
    if (!element) return;
    // Lines put before the first one ("load older"): a reader's rows stay where they were; a view
    // pinned to the newest line moves to where the older lines end.
    const added = lines.length - before.length;
    const olderOnTop =
      added > 0 && before.first !== undefined && lines[0]?.raw !== before.first && lines[added]?.raw === before.first;
    if (olderOnTop) {
      const boundary = layout.top(added);
      const reading = element.scrollTop + boundary;
      element.scrollTop = follow && pinned ? Math.max(0, boundary - element.clientHeight / 2) : reading;
      setScrollTop(element.scrollTop);
      return;
    }
    // Opened (or looking back to a time): at the newest line shown.
    if ((follow && pinned) || (before.length === 0 && lines.length > 0)) {
      element.scrollTop = element.scrollHeight;
      setScrollTop(element.scrollTop);
    }
  }, [lines, follow, pinned, height]);

  // Expanded rows are measured once drawn: their wrapped text sets their height.
  useLayoutEffect(() => {
    let changed = false;
    const next = new Map(expanded);
    for (const [raw, element] of rows.current) {
      const measured = element.scrollHeight;
      if (next.has(raw) && next.get(raw) !== measured) {
        next.set(raw, Math.max(ROW_HEIGHT, measured));
        changed = true;
      }
    }
    if (changed) setExpanded(next);
  });

  const toggle = (raw: string) => {
    const next = new Map(expanded);
    if (next.has(raw)) next.delete(raw);
    else next.set(raw, ROW_HEIGHT);
    setExpanded(next);
  };

  const first = Math.max(0, layout.indexAt(scrollTop) - OVERSCAN);
  const last = Math.min(lines.length, layout.indexAt(scrollTop + height) + 1 + OVERSCAN);
  rows.current.clear();
  return (
    <div className="log-frame">
      <div
        ref={box}
        className="log-view"
        role="log"
        aria-label={text('logView.lines')}
        data-pinned={follow && pinned ? 'true' : 'false'}
        tabIndex={0}
        onScroll={(event) => {
          const element = event.currentTarget;
          setScrollTop(element.scrollTop);
          setPinned(element.scrollTop + element.clientHeight >= element.scrollHeight - ROW_HEIGHT * 2);
        }}
      >
        <div style={{ height: layout.total, position: 'relative' }}>
          {lines.slice(first, last).map((line, i) => {
            const index = first + i;
            const open = expanded.has(line.raw);
            return (
              <div
                key={index}
                ref={open ? (element) => void (element && rows.current.set(line.raw, element)) : undefined}
                className={`log-row log-${line.level.toLowerCase()}${open ? ' log-row-open' : ''}`}
                data-level={line.level}
                data-expanded={open ? 'true' : 'false'}
                style={{ top: layout.top(index), ...(open ? { minHeight: ROW_HEIGHT } : { height: ROW_HEIGHT }) }}
                title={open ? undefined : text('logView.clickToShow')}
                onClick={() => {
                  // Selecting text in an open line is not a click to fold it.
                  if (open && window.getSelection()?.toString()) return;
                  toggle(line.raw);
                }}
              >
                {line.timestamp ? <LocalTime className="log-time" value={line.timestamp} millis /> : <span className="log-time" />}
                <span className="log-level">{line.level}</span>
                <span className="log-component">{line.component}</span>
                <span className="log-message">{line.message}</span>
              </div>
            );
          })}
        </div>
      </div>
      {follow && !pinned && (
        <button type="button" className="button small log-jump" onClick={() => setPinned(true)}>
          {text('logView.newest')}
        </button>
      )}
    </div>
  );
}
