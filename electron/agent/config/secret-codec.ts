import { SECRET_KEYS } from '../../../shared/config/schema.js';

/**
 * Encrypts secrets at rest. The desktop app supplies one backed by the OS keychain (Electron
 * safeStorage); headless, secrets stay plain in a 0600 file. Encrypted values are stored as
 * `enc:v1:<base64>`, so a file can mix both (a configuration written headless, opened on desktop).
 */
export interface SecretCodec {
  encrypt(plain: string): Buffer;
  decrypt(cipher: Buffer): string;
}

const PREFIX = 'enc:v1:';

function mapSecrets(node: unknown, transform: (value: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => mapSecrets(item, transform));
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node))
      out[key] = SECRET_KEYS.has(key) && typeof value === 'string' && value !== '' ? transform(value) : mapSecrets(value, transform);
    return out;
  }
  return node;
}

/** The document as written to disk: every secret encrypted. */
export function sealSecrets(config: unknown, codec: SecretCodec): unknown {
  return mapSecrets(config, (value) => (value.startsWith(PREFIX) ? value : PREFIX + codec.encrypt(value).toString('base64')));
}

/** The document as the agent uses it: every encrypted secret decrypted. */
export function openSecrets(config: unknown, codec: SecretCodec | undefined): unknown {
  return mapSecrets(config, (value) => {
    if (!value.startsWith(PREFIX)) return value;
    if (!codec) throw new Error('The configuration holds secrets encrypted by the desktop app; open it with the desktop app, or enter the secrets again.');
    return codec.decrypt(Buffer.from(value.slice(PREFIX.length), 'base64'));
  });
}
