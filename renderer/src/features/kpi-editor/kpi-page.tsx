import { text } from '../../i18n/language.js';
import { lazy, Suspense } from 'react';

// Monaco is large: the workspace (and the editor in it) loads only when this page is opened.
const KpiWorkspace = lazy(() => import('./kpi-workspace.js').then((module) => ({ default: module.KpiWorkspace })));

/** KPIs: the library, the editor with live validation, and a preview on this agent's recent data. */
export function KpiPage() {
  return (
    <Suspense fallback={<p className="muted">{text('kpi.loadingEditor')}</p>}>
      <KpiWorkspace />
    </Suspense>
  );
}
