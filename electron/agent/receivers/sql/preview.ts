/** The sql preview: each stream's query once, bound to the saved state (sql-preview.ts). */
import type { ReceiverPreview } from '../../components/receiver-preview.js';
import { previewSql } from './sql-preview.js';
import type { SqlReceiverConfig } from './sql-receiver.js';

const preview: ReceiverPreview<SqlReceiverConfig> = (receiver, request) =>
  previewSql(receiver, {
    rows: request.rows,
    nowMicros: request.nowMicros,
    logger: request.logger,
    savedState: request.savedState,
  });
export default preview;
