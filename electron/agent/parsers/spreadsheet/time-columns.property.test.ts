// The minute memo of instantAt (time-columns.ts) reads every text as instant() does: over generated
// runs of time texts (the same minute with other seconds, the next minute, a day of a zone's
// change to or from summer time, bad and padded texts) in formats with and without fractions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTimeStamper } from './time-columns.js';

const FORMATS = ['%Y-%m-%d %H:%M:%S.%f', '%Y-%m-%d %H:%M:%S', '%d.%m.%Y %H:%M:%S,%f', '%Y%m%d %H%M%S', '%m/%d/%y %H:%M:%S', '%Y-%m-%dT%H:%M:%S.%fZ'];
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata'];

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The text of a wall time in `format` (the directives FORMATS use). */
function spell(format: string, w: { y: number; mo: number; d: number; h: number; mi: number; s: number; f: string }): string {
  return format
    .replace('%Y', pad(w.y, 4))
    .replace('%y', pad(w.y % 100, 2))
    .replace('%m', pad(w.mo, 2))
    .replace('%d', pad(w.d, 2))
    .replace('%H', pad(w.h, 2))
    .replace('%M', pad(w.mi, 2))
    .replace('%S', pad(w.s, 2))
    .replace('%f', w.f);
}

// Around real offset changes (Berlin and New York in March and October/November, Lord Howe's half
// hour), and an ordinary minute; seconds up to 61 and fractions of 0 to 7 digits.
const wallTime = fc.record({
  y: fc.constantFrom(2026, 2027, 1999, 2068, 2069),
  mo: fc.constantFrom(3, 4, 10, 11),
  d: fc.constantFrom(1, 5, 8, 29, 31),
  h: fc.constantFrom(0, 1, 2, 3, 23),
  mi: fc.constantFrom(0, 1, 30, 59),
  s: fc.integer({ min: 0, max: 61 }),
  f: fc.stringMatching(/^\d{0,7}$/),
});

// A run of texts: mostly the next text of the same minute, sometimes a new minute, a padded or
// broken text.
const run = fc.array(
  fc.tuple(wallTime, fc.constantFrom('same', 'same', 'same', 'new', 'padded', 'broken', 'oneDigit', 'foreign', 'badByte')),
  { minLength: 1, maxLength: 40 },
);

describe('time columns: instantAt with its minute memo', () => {
  it('reads every text of a run as instant() reads it alone', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMATS), fc.constantFrom(...ZONES), run, (format, zone, steps) => {
        const parse = { parse_timestamps: [{ field_name: 'time', format }] };
        const memo = createTimeStamper(parse, zone);
        const reference = createTimeStamper(parse, zone);
        let last = steps[0]![0];
        for (const [wall, kind] of steps) {
          const w = kind === 'same' ? { ...last, s: wall.s, f: wall.f } : wall;
          last = w;
          let text = spell(format, w);
          if (kind === 'padded') text = ` ${text} `;
          if (kind === 'broken') text = text.slice(0, -1) + 'x';
          if (kind === 'oneDigit') text = text.replace(/(\D)(\d)(\d)(\D?\d*)$/, '$1$3$4');
          if (kind === 'foreign') text = text.replace(/\d/, '٣');
          // The text inside a line's bytes, as plain-rows hands it over; a byte that is no UTF-8 now
          // and then (read as U+FFFD).
          let bytes = Buffer.from(text, 'utf8');
          if (kind === 'badByte') bytes = Buffer.concat([bytes.subarray(0, 3), Buffer.from([0xb2]), bytes.subarray(3)]);
          const line = Buffer.concat([Buffer.from('a;'), bytes, Buffer.from(';b')]);
          const decoded = bytes.toString('utf8');
          expect(memo.instantAt(0, line, 2, 2 + bytes.length)).toBe(reference.instant(0, decoded));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reads the texts of one minute by their seconds, and a new minute in full', () => {
    const stamper = createTimeStamper({ parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S.%f' }] }, 'Europe/Berlin');
    const at = (text: string) => stamper.instantAt(0, Buffer.from(text), 0, text.length);
    // 2026-03-29 01:59 is UTC+1; 03:00 is UTC+2 (02:xx does not exist that day).
    expect(at('2026-03-29 01:59:58.5')).toBe(Date.UTC(2026, 2, 29, 0, 59, 58) * 1000 + 500_000);
    expect(at('2026-03-29 01:59:59.000001')).toBe(Date.UTC(2026, 2, 29, 0, 59, 59) * 1000 + 1);
    expect(at('2026-03-29 03:00:00.25')).toBe(Date.UTC(2026, 2, 29, 1, 0, 0) * 1000 + 250_000);
    expect(at('2026-03-29 03:00:07')).toBe(Number.NEGATIVE_INFINITY);
  });
});
