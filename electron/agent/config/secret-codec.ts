import { mapSecretValues } from '../../../shared/config/secrets.js';

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

const mapSecrets = mapSecretValues;

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
