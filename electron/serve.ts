/**
 * Headless entry: `npm run serve -- [options]`. Runs the agent core and the management API over
 * HTTP (HTTPS with --tls), and serves the console as a web page. Prints exactly one line on stdout
 * when ready:
 *   Tributary console: http://HOST:PORT/?token=TOKEN
 *   Tributary console: https://HOST:PORT/?token=TOKEN (certificate SHA-256 AB:CD:…)
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { InsecureBindError, TokenError, createHost, defaultDataDirectory } from './host/host.js';
import { TlsSetupError } from './host/tls/tls-certificate.js';
import { DemoLine, demoConfiguration } from './host/demo.js';
import { DemoModbusPlant } from './host/demo-modbus-server.js';
import { DemoOpcuaPlant, demoOpcuaPort } from './host/demo-opcua-server.js';

const USAGE = `Usage: npm run serve -- [options]   (installed on Linux: tributary serve [options])

  --data-dir DIR     where configuration, logs and state live (default ${defaultDataDirectory()})
  --port N           HTTP port (default 4900; 0 picks a free port)
  --host H           address to listen on (default 127.0.0.1; 0.0.0.0 for remote access)
  --allow-host NAME  also accept requests for this host name (repeatable)
  --tls              serve HTTPS only (a self-signed certificate is made in <data-dir>/tls/)
  --tls-cert FILE    HTTPS with this certificate (PEM; implies --tls; with --tls-key)
  --tls-key FILE     the certificate's private key (PEM)
  --allow-insecure-http  plain HTTP on a non-loopback --host (refused otherwise: use --tls)
  --allow-write DIR  let csv transmits write into DIR besides the data directory (repeatable)
  --demo             seed a demo configuration, sample machine files and a simulated OPC UA server
  --kpi-retention-days N  days of records kept for KPI previews (default 7)
  --help             show this text
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function retentionDays(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const days = Number(text);
  if (!Number.isFinite(days) || days <= 0 || days > 3650) fail(`--kpi-retention-days must be a number of days from 0 to 3650, not "${text}".`);
  return days;
}

function tlsOption(tls: boolean | undefined, certFile: string | undefined, keyFile: string | undefined) {
  if ((certFile === undefined) !== (keyFile === undefined)) fail('--tls-cert and --tls-key go together: give both files (PEM).');
  if (!tls && certFile === undefined) return undefined;
  return certFile === undefined ? {} : { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile!) };
}

function parseCli(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        'data-dir': { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'allow-host': { type: 'string', multiple: true },
        tls: { type: 'boolean' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'allow-insecure-http': { type: 'boolean' },
        'allow-write': { type: 'string', multiple: true },
        demo: { type: 'boolean' },
        'kpi-retention-days': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (cause) {
    fail((cause as Error).message);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const port = values.port === undefined ? 4900 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a number from 0 to 65535, not "${values.port}".`);
  return {
    dataDirectory: path.resolve(values['data-dir'] ?? defaultDataDirectory()),
    port,
    host: values.host ?? '127.0.0.1',
    allowedHosts: (values['allow-host'] ?? []).flatMap((h) => h.split(',')).filter(Boolean),
    tls: tlsOption(values.tls, values['tls-cert'], values['tls-key']),
    allowInsecureHttp: values['allow-insecure-http'] ?? false,
    allowWrite: (values['allow-write'] ?? []).filter(Boolean).map((folder) => path.resolve(folder)),
    kpiRetentionDays: retentionDays(values['kpi-retention-days']),
    demo: values.demo ?? false,
  };
}

/** Runs the headless agent with these command-line options (`tributary serve …` too). */
export async function serve(argv: string[]): Promise<void> {
  const cli = parseCli(argv);
  // Files the agent creates are for its user (and group) only: configuration, state and logs hold
  // plant data and credentials.
  process.umask(0o027);
  const consoleDirectory = fileURLToPath(new URL('../renderer/', import.meta.url));
  const demoLine = cli.demo ? new DemoLine(cli.dataDirectory) : undefined;
  demoLine?.start();
  // The simulated OPC UA plant starts before the agent, so that the demo receiver finds it at its
  // first attempt: a fresh demo shows no connection warning and no `unknown` service. A plant that
  // does not start is reported and the demo runs on without it (the receiver keeps retrying).
  const opcuaPort = cli.demo ? await demoOpcuaPort(cli.dataDirectory) : undefined;
  const demoPlant =
    opcuaPort === undefined
      ? undefined
      : await DemoOpcuaPlant.start(cli.dataDirectory, opcuaPort).catch((cause: Error) => {
          process.stderr.write(`The simulated OPC UA server of the demo did not start: ${cause.message}\n`);
          return undefined;
        });
  // The simulated Modbus TCP compressor, likewise before the agent (it starts in milliseconds).
  const demoCompressor = cli.demo
    ? await DemoModbusPlant.start(cli.dataDirectory).catch((cause: Error) => {
        process.stderr.write(`The simulated Modbus TCP compressor of the demo did not start: ${cause.message}\n`);
        return undefined;
      })
    : undefined;
  const host = await createHost({
    logMachine: true,
    dataDirectory: cli.dataDirectory,
    http: { host: cli.host, port: cli.port, allowedHosts: cli.allowedHosts, consoleDirectory, tls: cli.tls, allowInsecureHttp: cli.allowInsecureHttp },
    kpiRetentionMs: cli.kpiRetentionDays === undefined ? undefined : cli.kpiRetentionDays * 86_400_000,
    allowWrite: cli.allowWrite,
  });
  if (cli.demo && !host.runtime.readConfig().lastModified) {
    const outcome = await host.runtime.saveConfig(demoConfiguration(cli.dataDirectory, { opcuaPort, modbusPort: demoCompressor?.port }));
    if (outcome.status === 'failed') process.stderr.write(`Demo configuration refused: ${JSON.stringify(outcome.violations)}\n`);
  }
  const shownHost = cli.host.includes(':') ? `[${cli.host}]` : cli.host;
  const url = `${host.tls ? 'https' : 'http'}://${shownHost}:${host.http!.port}/?token=${host.token}`;
  // The fingerprint lets a user check, before accepting the browser's warning, that the certificate
  // is this agent's (compare with `openssl x509 -fingerprint -sha256 -in <data-dir>/tls/cert.pem`).
  process.stdout.write(`Tributary console: ${url}${host.tls ? ` (certificate SHA-256 ${host.tls.fingerprint256})` : ''}\n`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    host.runtime.webLog.info(`${signal} received, shutting down`);
    demoLine?.stop();
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    host
      .close()
      .then(() => demoPlant?.stop())
      .then(() => demoCompressor?.stop())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  // Last line of defence for "never kill": a promise nobody handled is logged, not fatal.
  process.on('unhandledRejection', (reason) => host.runtime.webLog.error('A background task failed unexpectedly (the agent keeps running)', reason));
  // An exception nobody caught still ends the process (its state is unknown), but not silently: the
  // web log says why, beside the stderr line a service manager keeps.
  process.on('uncaughtException', (error) => {
    host.runtime.webLog.error('Tributary stopped on an unexpected error', error);
    process.stderr.write(`Tributary stopped on an unexpected error: ${error.stack ?? String(error)}\n`);
    process.exit(1);
  });
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** The exit of a start that failed, with the reason in words on stderr. */
export function failedStart(cause: NodeJS.ErrnoException): never {
  if (cause instanceof TokenError || cause instanceof InsecureBindError || cause instanceof TlsSetupError) {
    process.stderr.write(`Tributary: ${cause.message}\n`);
    process.exit(2);
  }
  if (cause?.code === 'EADDRINUSE') process.stderr.write(`Tributary: the port is already in use (${cause.message}). Choose another with --port.\n`);
  else if (cause?.code === 'EACCES') process.stderr.write(`Tributary: not allowed: ${cause.message}\n`);
  else process.stderr.write(`Tributary could not start: ${cause?.stack ?? String(cause)}\n`);
  process.exit(1);
}

// Run as a script (npm run serve, the tests), not when imported by the command-line tool.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) serve(process.argv.slice(2)).catch(failedStart);
