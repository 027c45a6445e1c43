/**
 * Checks of a configuration that need this PC's file system (shared/ cannot): files it names must
 * exist when it is saved, or the component would only fail later, at start.
 */
import fs from 'node:fs';
import { type JsonPath, type Violation, error, say } from '../../../shared/config/violations.js';

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asRecord = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

function caFileProblem(file: unknown, path: JsonPath): Violation[] {
  if (typeof file !== 'string' || file === '' || file.startsWith('<fill in: ')) return [];
  try {
    if (fs.statSync(file).isFile()) return [];
    return [error(path, say('file.ca_file_not_file', 'ca_file "{file}" is not a file. Give the PEM file of the CA that signed the broker\'s certificate.', { file }))];
  } catch (cause) {
    return [error(path, say('file.ca_file_unreadable', 'ca_file "{file}" cannot be read on this PC ({cause}). Give the path of the PEM file of the CA that signed the broker\'s certificate.', { file, cause: (cause as NodeJS.ErrnoException).code ?? (cause as Error).message }))];
  }
}

/** ca_file of mqtt receiver connections and mqtt transmits. Reads the document defensively. */
export function fileReferenceViolations(document: unknown): Violation[] {
  const out: Violation[] = [];
  const doc = asRecord(document);
  asList(doc.data_receiver).forEach((receiver, r) => {
    if (asRecord(receiver).protocol !== 'mqtt') return;
    asList(asRecord(receiver).connections).forEach((c, k) => out.push(...caFileProblem(asRecord(c).ca_file, ['data_receiver', r, 'connections', k, 'ca_file'])));
  });
  asList(doc.data_transmit).forEach((transmit, t) => {
    if (asRecord(transmit).transmit_type === 'mqtt') out.push(...caFileProblem(asRecord(transmit).ca_file, ['data_transmit', t, 'ca_file']));
  });
  return out;
}
