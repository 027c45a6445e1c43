/** localfile rules: what the schema cannot say about the folders. */
import type { z } from 'zod';
import type { LocalfileReceiverSchema } from './schema.js';
import { type JsonPath, type Violation, error, warning, say } from '../../violations.js';
import type { ReceiverRuleChecks } from '../descriptor.js';

type LocalfileReceiver = z.infer<typeof LocalfileReceiverSchema>;

export function localfileReceiverViolations(receiver: LocalfileReceiver, base: JsonPath, { isPrompt }: ReceiverRuleChecks): Violation[] {
  const out: Violation[] = [];
  receiver.connections.forEach((c, k) => {
    const path = c.root_path ?? c.data_directory;
    if (path === undefined) out.push(error([...base, 'connections', k], say('localfile.connection_needs_root_path_folder', 'The connection needs root_path: the folder the machines write to.')));
    else if (c.root_path !== undefined && c.data_directory !== undefined && c.root_path !== c.data_directory)
      out.push(error([...base, 'connections', k, 'data_directory'], say('localfile.root_path_data_directory_name_different', 'root_path and data_directory name different folders; keep one.')));
    else if (!/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path) && !isPrompt(path))
      out.push(warning([...base, 'connections', k, c.root_path !== undefined ? 'root_path' : 'data_directory'], say('localfile.relative_path_read_relative', '"{path}" is a relative path; it is read relative to the agent\'s working directory. Use an absolute path.', { path })));
  });
  return out;
}
