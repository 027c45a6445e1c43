/**
 * The path rules on real paths (docs/security.md, "Paths"): shared/config/path-policy.ts judges the
 * text of a path, which a relative path (`../../var/lib/x`) or a symbolic link gets around. Here the
 * agent resolves each folder on this PC (relative paths as the receivers resolve them, links
 * followed) and judges where it really leads: a file receiver's folder that reaches into the data
 * directory, delete_completed in a folder of the operating system, csv output outside the allowed
 * folders. The readers and the csv transmit check again at run time (ReadPolicy, WritePolicy).
 */
import path from 'node:path';
import { isSystemFolder } from '../../../shared/config/path-policy.js';
import { receiverFilesOf } from '../../../shared/config/receivers/derive.js';
import { type JsonPath, type Violation, error, say } from '../../../shared/config/violations.js';
import { ReadPolicy, dataDirectoryReach, localFolderOfShare, readRefusal, realPath } from '../disk/read-policy.js';
import { WritePolicy } from '../disk/write-policy.js';

export interface RealPathContext {
  dataDirectory: string;
  allowWrite?: readonly string[];
  /** The OS the agent runs on (tests): administrative shares (C$) map to local drives on Windows. */
  platform?: NodeJS.Platform;
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asRecord = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const usable = (value: unknown): value is string => typeof value === 'string' && value !== '' && !value.startsWith('<fill in: ');

/** Folders resolved at most this many at a time: 5,000 receivers must not queue 5,000 lookups at once. */
const CONCURRENT = 16;

async function inBatches<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += CONCURRENT) await Promise.all(items.slice(i, i + CONCURRENT).map(work));
}

/**
 * Violations of the real-path rules in `document` (read defensively: any document). `existing`:
 * what validation found already; a field it holds an error for gets no second one.
 */
export async function realPathViolations(document: unknown, existing: readonly Violation[], context: RealPathContext): Promise<Violation[]> {
  const out: Violation[] = [];
  const data = await realPath(context.dataDirectory);
  const checks: { folder: string; label: string; at: JsonPath; deleting?: JsonPath }[] = [];
  asList(asRecord(document).data_receiver).forEach((item, r) => {
    const receiver = asRecord(item);
    const deleting: JsonPath | undefined = receiver.delete_completed === true ? ['data_receiver', r, 'delete_completed'] : undefined;
    asList(receiver.connections).forEach((item, k) => {
      const connection = asRecord(item);
      const files = receiverFilesOf(typeof receiver.protocol === 'string' ? receiver.protocol : undefined);
      if (files && !files.share) {
        const field = files.folderField(connection);
        const folder = connection[field];
        if (usable(folder)) checks.push({ folder, label: `"${folder}"`, at: ['data_receiver', r, 'connections', k, field], deleting });
      } else if (files?.share && usable(connection.host) && usable(connection.shared_folder)) {
        const local = localFolderOfShare(connection.host, connection.shared_folder, context.platform);
        const label = `\\\\${connection.host}\\${connection.shared_folder.replace(/^[\\/]+/, '')}`;
        if (local) checks.push({ folder: local, label, at: ['data_receiver', r, 'connections', k, 'shared_folder'] });
      }
    });
  });
  await inBatches(checks, async ({ folder, label, at, deleting }) => {
    const real = await realPath(folder);
    const reach = dataDirectoryReach(real, data);
    if (reach) out.push(error(at, readRefusal(label, real, reach)));
    // A folder whose text names a system folder is refused by the shared rule already (one error at the field).
    else if (deleting && isSystemFolder(real))
      out.push(
        error(
          deleting,
          say('path.delete_completed_real_system_folder', 'delete_completed would delete files from {label}, whose real path {real} is a folder of the operating system. Tributary refuses that; read from a folder of your own, or turn delete_completed off.', { label, real }),
        ),
      );
  });
  // Files a receiver or transmit reads (the mqtt ca_file) follow the same rule as folders.
  const files: { file: string; at: JsonPath }[] = [];
  asList(asRecord(document).data_receiver).forEach((item, r) => {
    if (asRecord(item).protocol !== 'mqtt') return;
    asList(asRecord(item).connections).forEach((c, k) => {
      const file = asRecord(c).ca_file;
      if (usable(file)) files.push({ file, at: ['data_receiver', r, 'connections', k, 'ca_file'] });
    });
  });
  asList(asRecord(document).data_transmit).forEach((item, t) => {
    const file = asRecord(item).ca_file;
    if (asRecord(item).transmit_type === 'mqtt' && usable(file)) files.push({ file, at: ['data_transmit', t, 'ca_file'] });
  });
  const reads = new ReadPolicy(context.dataDirectory);
  await inBatches(files, async ({ file, at }) => {
    const refused = await reads.refuseFile(file);
    if (refused) out.push(error(at, refused));
  });
  const writes = new WritePolicy(context.dataDirectory, context.allowWrite);
  asList(asRecord(document).data_transmit).forEach((item, t) => {
    const transmit = asRecord(item);
    if (transmit.transmit_type !== 'csv') return;
    const written = usable(transmit.directory) ? transmit.directory : 'outbox';
    const refused = writes.refuse(path.resolve(context.dataDirectory, written));
    if (refused) out.push(error(['data_transmit', t, 'directory'], say('path.write_refused', '{text}', { text: refused, folder: written })));
  });
  const taken = new Set(existing.filter((v) => v.level === 'error').map((v) => JSON.stringify(v.json_path)));
  return out.filter((v) => !taken.has(JSON.stringify(v.json_path)));
}
