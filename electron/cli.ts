/**
 * `tributary`: the command an installed agent is run and looked after with (the Linux package's
 * /usr/bin/tributary runs this file with the package's own Node):
 *   tributary serve [options]                 the agent (options as npm run serve --)
 *   tributary --version
 *   tributary token create NAME --role ROLE   a named API token (printed once)
 *   tributary config check FILE               the API's validation, violations with their json_path
 * The data directory is --data-dir, else TRIBUTARY_DATA_DIR (/var/lib/tributary when installed),
 * else ~/.tributary.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RoleSchema } from '../shared/api/roles.js';
import { TokenNameSchema } from '../shared/api/tokens.js';
import { checkConfigurationFile } from './agent/config/config-file-check.js';
import { TOKENS_FILE_NAME, TokenStore } from './api/auth/token-store.js';
import { defaultDataDirectory } from './host/host.js';

const USAGE = `Usage: tributary <command>

  serve [options]                  run the agent and its console (tributary serve --help)
  token create NAME --role ROLE    create an API token (ROLE: viewer, operator, admin); shown once
  config check FILE                validate a configuration file as the API does
  --version                        the version of this agent

  --data-dir DIR                   the data directory (default ${defaultDataDirectory()})
`;

function version(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

function fail(message: string, code = 2): never {
  process.stderr.write(`tributary: ${message}\n`);
  process.exit(code);
}

/** The data directory's owner gets what root creates in it (the service runs as that user). */
function giveToOwnerOf(dataDirectory: string, file: string): void {
  if (process.getuid?.() !== 0) return;
  const owner = fs.statSync(dataDirectory);
  fs.chownSync(file, owner.uid, owner.gid);
}

function createToken(args: string[]): void {
  const { values, positionals } = parseArgs({ args, options: { role: { type: 'string' }, 'data-dir': { type: 'string' } }, allowPositionals: true });
  const name = TokenNameSchema.safeParse(positionals[0]);
  if (!name.success) fail(`token create NAME --role ROLE: ${name.error.issues[0]?.message ?? 'a name is needed'}`);
  const role = RoleSchema.safeParse(values.role);
  if (!role.success) fail('token create NAME --role ROLE: the role is viewer, operator or admin');
  const dataDirectory = path.resolve(values['data-dir'] ?? defaultDataDirectory());
  if (!fs.existsSync(dataDirectory)) fail(`the data directory ${dataDirectory} does not exist (start the agent once, or give --data-dir)`);
  const file = path.join(dataDirectory, TOKENS_FILE_NAME);
  // The bootstrap token is not needed to create a named one: a value nobody can send stands in.
  const store = new TokenStore({ file, bootstrapToken: `\0${process.pid}:${Date.now()}`, warn: (message) => fail(message, 1) });
  let created;
  try {
    created = store.create(name.data, role.data);
  } catch (cause) {
    fail((cause as Error).message, 1);
  }
  giveToOwnerOf(dataDirectory, file);
  process.stdout.write(`${created.token}\n`);
  process.stderr.write(`Token "${created.name}" (${created.role}) created; it is shown only now. A running agent accepts it within a second.\n`);
}

async function checkConfig(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, options: { 'data-dir': { type: 'string' }, 'allow-write': { type: 'string', multiple: true } }, allowPositionals: true });
  const file = positionals[0];
  if (!file) fail('config check FILE: name the configuration file');
  const dataDirectory = values['data-dir'] ?? defaultDataDirectory();
  const checked = await checkConfigurationFile(path.resolve(file), { dataDirectory, allowWrite: values['allow-write'] ?? [] });
  if (!checked.ok) fail(checked.problem, 1);
  for (const violation of checked.violations)
    process.stdout.write(`${violation.level.padEnd(7)} ${JSON.stringify(violation.json_path)}: ${violation.description}\n`);
  const errors = checked.violations.filter((v) => v.level === 'error').length;
  const warnings = checked.violations.length - errors;
  process.stdout.write(`${file}: ${errors} error(s), ${warnings} warning(s)\n`);
  process.exit(errors > 0 ? 1 : 0);
}

async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`tributary ${version()}\n`);
    return;
  }
  if (command === 'serve') {
    const { serve, failedStart } = await import('./serve.js');
    await serve(argv.slice(1)).catch(failedStart);
    return;
  }
  if (command === 'token' && sub === 'create') return createToken(rest);
  if (command === 'config' && sub === 'check') return checkConfig(rest);
  if (command === undefined || command === '--help' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  fail(`unknown command "${argv.join(' ')}"\n\n${USAGE}`);
}

main(process.argv.slice(2)).catch((cause: Error) => fail(cause.stack ?? String(cause), 1));
