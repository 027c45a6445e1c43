import { text } from '../../i18n/language.js';
import { summaryLine } from '../../../../shared/config/change-summary.js';
import { agentText } from '../../i18n/agent-text.js';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText, queryKeys, useApi } from '../../api/index.js';
import { LocalTime } from '../../components/local-time.js';
import { ModalDialog } from '../../components/modal-dialog.js';
import { ConfigDiff } from './config-diff.js';
import { formatDocument } from './document-text.js';
import { formatNumber } from '../../format/locale.js';

interface HistoryPanelProps {
  open: boolean;
  /** The saved text the editor started from (what a version is compared with). */
  current: string;
  theme: string;
  /** Restore may be refused to the role (saving is an admin's). */
  canRestore: boolean;
  onClose: () => void;
  /** Puts the version's text into the editor and opens the normal save (its diff and deploy). */
  onRestore: (text: string, revision: number) => void;
}

/** The kept configuration versions (GET /v1/config/history): who saved what when, a diff against the current one, restore. */
export function HistoryPanel({ open, current, theme, canRestore, onClose, onRestore }: HistoryPanelProps) {
  const api = useApi();
  const [selected, setSelected] = useState<number | null>(null);
  const versions = useQuery({
    queryKey: [...queryKeys.config(), 'history'],
    queryFn: async () => (await api.route('listConfigHistory')).response,
    enabled: open,
    staleTime: 0,
  });
  const version = useQuery({
    queryKey: [...queryKeys.config(), 'history', selected],
    queryFn: async () => {
      const answer = await api.route('getConfigVersion', { params: { revision: String(selected) } });
      if (!answer.success) throw new Error(answer.text);
      return formatDocument(answer.response);
    },
    enabled: open && selected !== null,
  });
  const close = () => {
    setSelected(null);
    onClose();
  };
  return (
    <ModalDialog
      open={open}
      title={text('history.title')}
      wide
      onClose={close}
      actions={
        // Read-only (the role may not save): restoring is not offered; comparing is.
        selected !== null && version.data !== undefined && canRestore ? (
          <button
            type="button"
            className="button button-primary"
            title={text('history.restoreTitle')}
            onClick={() => {
              onRestore(version.data, selected);
              setSelected(null);
            }}
          >
            {text('history.restore', { revision: selected })}
          </button>
        ) : undefined
      }
    >
      {versions.isError && <p className="notice notice-error">{text('history.unreadable', { error: errorText(versions.error) })}</p>}
      {versions.data?.length === 0 && <p className="muted">{text('history.none')}</p>}
      {versions.data && versions.data.length > 0 && (
        <table className="table compact" aria-label={text('history.versions')}>
          <thead>
            <tr>
              <th>{text('history.revision')}</th>
              <th>{text('history.saved')}</th>
              <th>{text('history.by')}</th>
              <th>{text('history.what')}</th>
              <th>{text('history.size')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {versions.data.map((entry) => (
              <tr key={entry.revision} aria-selected={entry.revision === selected} data-testid={`version-${entry.revision}`}>
                <td>
                  {entry.revision}
                  {entry.current && <strong>{text('history.current')}</strong>}
                </td>
                <td>{entry.saved_at ? <LocalTime value={entry.saved_at} /> : text('history.unknown')}</td>
                <td>{entry.saved_by ?? <span className="muted">{text('history.unknown')}</span>}</td>
                <td className="history-summary" data-testid="version-summary">
                  {(entry.changes ? summaryLine(entry.changes, true, (m) => agentText(m.code, m.params, m.text)) : entry.summary) ?? <span className="muted">{text('history.notRecorded')}</span>}
                </td>
                <td>{text('history.kib', { size: formatNumber(entry.size / 1024, { fractionDigits: 1 }) })}</td>
                <td>
                  <button type="button" className="button small" disabled={entry.current} onClick={() => setSelected(entry.revision)}>
                    {text('history.compare')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected !== null && version.isError && <p className="notice notice-error">{text('history.revisionUnreadable', { revision: selected, error: errorText(version.error) })}</p>}
      {selected !== null && version.data !== undefined && (
        <>
          <p className="muted small">{text('history.diff', { revision: selected })}</p>
          <ConfigDiff key={selected} original={version.data} modified={current} theme={theme} testId="history-diff" />
        </>
      )}
    </ModalDialog>
  );
}
