import { text } from '../../i18n/language.js';
import { useState } from 'react';
import { useConfig, useReloadConfig } from '../../api/index.js';
import { ErrorNotice } from '../../components/error-notice.js';
import '../../monaco/setup.js';
import { ConfigWorkspace } from './config-workspace.js';
import { formatDocument } from './document-text.js';

/**
 * Loads the saved configuration and hands it to the workspace, which keeps its own baseline from
 * then on (a save does not reload the editor). Only "Load the saved version" starts it over.
 */
export function ConfigPage() {
  const config = useConfig();
  const reload = useReloadConfig();
  const [generation, setGeneration] = useState(0);
  if (config.isError && !config.data) return <ErrorNotice title={text('config.unreadable')} error={config.error} />;
  if (!config.data) return <p className="muted">{text('config.loading')}</p>;
  return (
    <ConfigWorkspace
      key={generation}
      initial={formatDocument(config.data.document)}
      initialLastModified={config.data.lastModified}
      initialRevision={config.data.revision}
      initialSavedBy={config.data.savedBy}
      onReload={() => void reload().then(() => setGeneration((n) => n + 1))}
    />
  );
}
