import { text } from '../i18n/language.js';
import type { FileReading } from '../../../shared/api/resources.js';
import { bytes } from '../format/quantities.js';
import { ProgressBar } from './progress-bar.js';

/** The file a stream is reading now: its name, bytes read of its size, and a bar. */
export function FileReadingBar({ reading }: { reading: FileReading }) {
  const name = reading.path.split(/[\\/]/).pop() ?? reading.path;
  const percent = reading.size <= 0 ? 100 : Math.min(100, Math.floor((reading.bytes_read / reading.size) * 100));
  return (
    <ProgressBar
      label={text('notes.readingLabel', { name })}
      value={reading.bytes_read}
      max={reading.size}
      text={text('notes.reading', { name, read: bytes(reading.bytes_read), size: bytes(reading.size), percent })}
      testId="file-reading"
    />
  );
}
