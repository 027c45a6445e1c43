/** The opcua preview: one read of every tag (opcua-preview.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { componentFolderName } from '../../../../shared/config/name-rules.js';
import type { ReceiverPreview } from '../../components/receiver-preview.js';
import { previewOpcua } from './opcua-preview.js';
import type { OpcuaReceiverConfig } from './opcua-receiver.js';

const preview: ReceiverPreview<OpcuaReceiverConfig> = async (receiver, request) => {
  // A saved receiver's own certificate and trust list (components/receiver/<name>/pki), as browsing
  // uses; a receiver not saved yet gets a throwaway one: a preview leaves no folder behind.
  const folder = componentFolderName(receiver.data_receiver_name);
  const own = path.join(request.agentDataDirectory, 'components', 'receiver', folder);
  const throwaway = fs.existsSync(own) ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-preview-'));
  try {
    const pkiFolder = path.join(throwaway ?? own, 'pki');
    return await previewOpcua(receiver, { pkiFolder, nowMicros: request.nowMicros, logger: request.logger });
  } finally {
    if (throwaway) fs.rmSync(throwaway, { recursive: true, force: true });
  }
};
export default preview;
