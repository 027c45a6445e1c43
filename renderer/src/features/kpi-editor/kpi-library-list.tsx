import { text } from '../../i18n/language.js';
import { useTranslations } from 'use-intl';
import type { KpiLibraryEntry } from '../../../../shared/kpi/api.js';

interface LibraryListProps {
  entries: readonly KpiLibraryEntry[] | undefined;
  loading: boolean;
  selected: string | null;
  onOpen: (entry: KpiLibraryEntry) => void;
}

/** The saved KPIs; the one open in the editor is marked. */
export function KpiLibraryList({ entries, loading, selected, onOpen }: LibraryListProps) {
  const t = useTranslations('kpi');
  return (
    <aside className="kpi-library" aria-labelledby="kpi-library-title">
      <h2 id="kpi-library-title">{t('library')}</h2>
      {loading && <p className="muted small">{text('common.loading')}</p>}
      {entries && entries.length === 0 && <p className="muted small">{t('libraryEmpty')}</p>}
      <ul className="kpi-library-list" aria-label={t('saved')}>
        {(entries ?? []).map((entry) => (
          <li key={entry.name}>
            <button type="button" className="kpi-library-item" aria-current={entry.name === selected ? 'true' : undefined} onClick={() => onOpen(entry)}>
              <span className="kpi-library-name">{entry.display_name}</span>
              <span className="muted small mono">{entry.name}</span>
              <span className="muted small">
                {entry.kind === 'line' ? t('lineKpi') : t('machineKpi')}
                {entry.unit ? ` · ${entry.unit}` : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
