import net from 'node:net';

/** Whether an address to listen on is reachable from this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  if (name === 'localhost' || name === '::1') return true;
  if (net.isIPv4(name)) return name.startsWith('127.');
  if (name.startsWith('::ffff:')) return isLoopbackHost(name.slice(7));
  return false;
}
