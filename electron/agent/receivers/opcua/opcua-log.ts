import { format } from 'node:util';
import { setErrorLogger, setWarningLogger } from 'node-opcua-client';
import type { Logger } from '../../logging/logger.js';

/**
 * node-opcua writes its warnings and errors with console.log, which would break the headless
 * server's promise of exactly one line on stdout and bypass the agent's log files. Its loggers are
 * process-wide, so this bridge is too (the one module-level state of this folder, by necessity):
 * receivers attach their logger while they run, and the library's lines go to the newest of them
 * at DEBUG level, or nowhere when none runs. Our own markers and log lines say what matters in
 * words a plant engineer understands; these lines are the library's detail behind them.
 */
const sinks: Logger[] = [];
let installed = false;
const MAX_LINE = 2000;
const ANSI = /\u001b\[[0-9;]*m/g;
/**
 * Lines that say nothing about this plant and only alarm the reader: node-opcua's notice that the
 * Node version needs a flag for RSA PKCS#1 v1.5 (a policy Tributary does not offer) and its
 * announcement of the certificate it creates on first start.
 */
const BENIGN = [/\[NODE-OPCUA-W27\] node version/, /--security-revert=CVE-/, /^Creating default certificate/];

export function installOpcuaLogBridge(): void {
  if (installed) return;
  installed = true;
  const forward = (kind: string) => (_context?: unknown, ...args: unknown[]) => {
    const sink = sinks[sinks.length - 1];
    if (!sink) return;
    const text = format(...args).replace(ANSI, '').trim();
    if (text && !BENIGN.some((pattern) => pattern.test(text))) sink.debug(`node-opcua ${kind}: ${text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)} …` : text}`);
  };
  setWarningLogger(forward('warning'));
  setErrorLogger(forward('error'));
}

/** Sends node-opcua's lines to `logger` until the returned function is called. */
export function attachOpcuaLog(logger: Logger): () => void {
  installOpcuaLogBridge();
  sinks.push(logger);
  return () => {
    const index = sinks.lastIndexOf(logger);
    if (index >= 0) sinks.splice(index, 1);
  };
}

// node-opcua logs from the moment it is imported (e.g. a crypto self-test on import): take over its
// loggers as soon as this folder is loaded, before anything reaches stdout.
installOpcuaLogBridge();
