import { useState } from 'react';
import { useConfig } from '../../api/index.js';
import { ErrorNotice } from '../../components/error-notice.js';
import '../../monaco/setup.js';
import { ConfigWorkspace, type Notice } from './config-workspace.js';
import { formatDocument } from './document-text.js';

/**
 * Loads the saved configuration and hands it to the workspace. The workspace is keyed by the
 * saved revision: after a save (or a reload) it starts over from the new saved text.
 */
export function ConfigPage() {
  const config = useConfig();
  // Kept here, not in the workspace, so that "Saved" survives the workspace starting over.
  const [notice, setNotice] = useState<Notice | null>(null);
  if (config.isError) return <ErrorNotice title="The configuration cannot be read" error={config.error} />;
  if (!config.data) return <p className="muted">Loading the configuration…</p>;
  return (
    <ConfigWorkspace
      key={config.data.revision ?? 'never-saved'}
      saved={formatDocument(config.data.document)}
      lastModified={config.data.lastModified}
      revision={config.data.revision}
      notice={notice}
      onNotice={setNotice}
    />
  );
}
