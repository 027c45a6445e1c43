/**
 * Names that become folders: a receiver's, transform's and transmit's name names its folder under
 * `<data-dir>/components/<kind>/` (certificates, caches), a parser's name may name one too. A name
 * that is empty, only dots (`.`, `..`: the folder itself or the one above) or holds a path separator
 * would leave that folder, so it is refused at its json_path. Pure: the console says it as you type.
 */
import { type JsonPath, type Violation, error, say } from './violations.js';

/** Why `name` cannot name a folder, or undefined when it can. */
export function folderNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'must not be empty or only spaces';
  if (/^\.+$/.test(name)) return `"${name}" is not a name a folder can have ("." is the folder itself, ".." the one above)`;
  const separator = /[/\\]/.exec(name)?.[0];
  if (separator) return `"${name}" contains "${separator}", a path separator`;
  return undefined;
}

/**
 * The folder name of a component called `name` under components/<kind>/ (URI-encoded, as before;
 * a name of dots only, which validation refuses, is encoded too so that even an old saved one stays
 * inside its kind's folder).
 */
export function componentFolderName(name: string): string {
  const encoded = encodeURIComponent(name);
  return /^\.*$/.test(encoded) ? encoded.replace(/\./g, '%2E') || '%00' : encoded;
}

interface Named {
  data_receiver: readonly ({ data_receiver_name?: unknown; parsers?: unknown } | undefined)[];
  transforms: readonly ({ transform_name?: unknown } | undefined)[];
  data_transmit: readonly ({ transmit_name?: unknown } | undefined)[];
}

/** Names of receivers, their parsers, transforms and transmits that cannot name a folder. */
export function folderNameViolations(config: Named): Violation[] {
  const out: Violation[] = [];
  const check = (name: unknown, at: JsonPath, what: string) => {
    if (typeof name !== 'string') return;
    const problem = folderNameProblem(name);
    const advice = 'Choose a name with letters, digits, "-" or "_".';
    if (problem) out.push(error(at, say('name.name_names_become_folder', 'The {what} name {problem}: names become folder names of the agent (components/…). {advice}', { what, problem, advice })));
  };
  config.data_receiver.forEach((receiver, r) => {
    if (!receiver) return;
    check(receiver.data_receiver_name, ['data_receiver', r, 'data_receiver_name'], 'receiver');
    if (Array.isArray(receiver.parsers))
      receiver.parsers.forEach((parser: { parser_name?: unknown } | undefined, p) =>
        check(parser?.parser_name, ['data_receiver', r, 'parsers', p, 'parser_name'], 'parser'),
      );
  });
  config.transforms.forEach((transform, t) => check(transform?.transform_name, ['transforms', t, 'transform_name'], 'transform'));
  config.data_transmit.forEach((transmit, t) => check(transmit?.transmit_name, ['data_transmit', t, 'transmit_name'], 'transmit'));
  return out;
}
