import type { FileReading } from '../../../shared/api/resources.js';
import { bytes } from '../format/quantities.js';
import { ProgressBar } from './progress-bar.js';

/** The file a stream is reading now: its name, bytes read of its size, and a bar. */
export function FileReadingBar({ reading }: { reading: FileReading }) {
  const name = reading.path.split(/[\\/]/).pop() ?? reading.path;
  const percent = reading.size <= 0 ? 100 : Math.min(100, Math.floor((reading.bytes_read / reading.size) * 100));
  return (
    <ProgressBar
      label={`Reading ${name}`}
      value={reading.bytes_read}
      max={reading.size}
      text={`Reading ${name}: ${bytes(reading.bytes_read)} of ${bytes(reading.size)} (${percent} %)`}
      testId="file-reading"
    />
  );
}
