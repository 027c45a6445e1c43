import type { PreviewProblem } from '../../../shared/api/preview.js';
import type { AgentRecord } from '../../../shared/records/record.js';
import type { StreamKey } from './contract.js';

/** What a receiver's preview read for one stream, before the transforms run. */
export interface RawStreamPreview {
  key: StreamKey;
  source: string | null;
  records: AgentRecord[];
  problems: PreviewProblem[];
}
