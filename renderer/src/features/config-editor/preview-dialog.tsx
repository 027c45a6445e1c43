import { text } from '../../i18n/language.js';
import { agentTextOf } from '../../i18n/agent-text.js';
import { useEffect, useState } from 'react';
import type { PreviewResult, StreamPreview } from '../../../../shared/api/preview.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { errorText, usePreview } from '../../api/index.js';
import { ModalDialog } from '../../components/modal-dialog.js';
import { showAgentTime } from '../../format/time.js';
import { pathText } from './violation-list.js';

const ROWS = 10;

interface PreviewDialogProps {
  open: boolean;
  /** The configuration as the editor holds it now (unsaved); undefined: the saved one (all an operator may preview). */
  document: unknown;
  receivers: readonly string[];
  /** The receiver to read first (the one the cursor is in). */
  initialReceiver: string | undefined;
  onClose: () => void;
}

/** What a receiver of the unsaved configuration would read: the first records of each stream. */
export function PreviewDialog({ open, document, receivers, initialReceiver, onClose }: PreviewDialogProps) {
  const preview = usePreview();
  const [receiver, setReceiver] = useState<string | undefined>(initialReceiver);
  const { mutate, reset } = preview;

  const configuration = document === undefined ? {} : { configuration: document as Record<string, unknown> };
  const read = (name: string | undefined) => mutate({ ...configuration, ...(name ? { receiver: name } : {}), rows: ROWS });

  // Opening reads at once: the engineer asked for it with the Preview button.
  useEffect(() => {
    if (!open) return;
    setReceiver(initialReceiver);
    reset();
    mutate({ ...configuration, ...(initialReceiver ? { receiver: initialReceiver } : {}), rows: ROWS });
    // Only when opened: the document is read as it was at that moment.
  }, [open]);

  const outcome = preview.data;
  return (
    <ModalDialog
      open={open}
      wide
      title={text('preview.title')}
      onClose={onClose}
      actions={
        <button type="button" className="button" onClick={() => read(receiver)} disabled={preview.isPending}>
          {text('preview.again')}
        </button>
      }
    >
      <div className="toolbar">
        <label className="field">
          {text('preview.receiver')}
          <select
            value={receiver ?? ''}
            onChange={(event) => {
              setReceiver(event.target.value);
              read(event.target.value);
            }}
          >
            {receivers.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <span className="muted small">{text('preview.fromEditor')}</span>
      </div>
      <div aria-live="polite" data-testid="preview-result">
        {preview.isPending && <p className="muted">{text('preview.reading')}</p>}
        {preview.isError && <div className="notice notice-error">{text('preview.failed', { error: errorText(preview.error) })}</div>}
        {outcome?.kind === 'invalid' && (
          <div className="notice notice-error">
            <strong>{outcome.message}</strong>
            <ul>
              {outcome.violations.slice(0, 5).map((v, i) => (
                <li key={i}>
                  <span className="mono small">{pathText(v.json_path)}</span>: {agentTextOf(v, v.description)}
                </li>
              ))}
            </ul>
          </div>
        )}
        {outcome?.kind === 'result' && <PreviewStreams result={outcome.result} />}
      </div>
    </ModalDialog>
  );
}

function PreviewStreams({ result }: { result: PreviewResult }) {
  if (result.streams.length === 0) return <p className="muted">{text('preview.noStreams', { receiver: result.receiver })}</p>;
  return (
    <>
      {result.streams.map((stream) => (
        <StreamSection key={`${stream.asset}:${stream.stream_type}`} stream={stream} />
      ))}
    </>
  );
}

function StreamSection({ stream }: { stream: StreamPreview }) {
  const id = `${stream.asset}:${stream.stream_type}`;
  return (
    <section className="preview-stream" aria-label={text('preview.of', { id })} data-stream={id}>
      <h3>
        <span className="mono">{id}</span>
        <span className="muted small">{stream.records.length > 0 ? text('preview.first', { count: stream.records.length }) : text('preview.noRecords')}</span>
      </h3>
      {stream.source && <p className="preview-source">{stream.source}</p>}
      {stream.problems.length > 0 && (
        <ul className="preview-problems">
          {stream.problems.map((problem, i) => (
            <li key={i} className={`notice notice-compact notice-${problem.level}`}>
              {agentTextOf(problem, problem.message)}
            </li>
          ))}
        </ul>
      )}
      {stream.records.length > 0 && (
        <div className="preview-table-box">
          <table className="table compact preview-table" aria-label={text('preview.firstOf', { id })}>
            <thead>
              <tr>
                <th scope="col">{text('preview.local')}</th>
                <th scope="col">{text('preview.utc')}</th>
                {stream.columns.map((column) => (
                  <th scope="col" key={column}>
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {stream.records.map((record, i) => (
                <tr key={i}>
                  <td>{showAgentTime(record.timestamp)?.text ?? record.timestamp}</td>
                  <td className="mono">{record.timestamp}</td>
                  {stream.columns.map((column) => (
                    <td key={column}>{cell(record.fieldvalues[column])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function cell(value: FieldValue | undefined) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  return String(value);
}
