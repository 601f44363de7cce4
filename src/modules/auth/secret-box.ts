/**
 * Encryption of API-key secrets at rest (docs/authentication.md#keys): AES-256-GCM under the 32-byte master key,
 * and the master key itself, taken from configuration or generated once into `<dataDir>/master.key` (mode 0600).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Config, parseMasterKey } from '../../config.ts';

const VERSION = 'v1';

/** Encrypts `plaintext`; returns `v1.<base64 iv>.<base64 tag>.<base64 ciphertext>`. */
export function encryptSecret(masterKey: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ct.toString('base64')].join('.');
}

/**
 * Decrypts what {@link encryptSecret} produced.
 * @throws Error when the text is malformed or was encrypted under another master key
 */
export function decryptSecret(masterKey: Buffer, boxed: string): string {
  const [version, iv, tag, ct] = boxed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || ct === undefined) {
    throw new Error('Unknown secret encoding');
  }
  const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
}

/** Where the generated master key lives: `<dataDir>/master.key`. */
export function masterKeyFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'master.key');
}

/**
 * The message of a start-up refused because the master key does not decrypt the stored secrets (names
 * `BIZAPI_MASTER_KEY` and the key file).
 */
export function masterKeyMismatchMessage(config: Pick<Config, 'masterKey' | 'dataDir'>): string {
  const source = config.masterKey ? 'BIZAPI_MASTER_KEY' : masterKeyFile(config);
  return `The master key (${source}) cannot decrypt the API-key secrets stored in the database: set BIZAPI_MASTER_KEY to the key they were encrypted with, or restore ${masterKeyFile(config)}.`;
}

/**
 * The master key of this installation: `BIZAPI_MASTER_KEY` when configured, else the content of
 * `<dataDir>/master.key`, which is created (64 hex characters, mode 0600) when missing — unless
 * `options.create` is false (the database already holds secrets), which throws instead.
 * @throws Error when the key file exists but does not hold a valid key
 */
export function resolveMasterKey(
  config: Pick<Config, 'masterKey' | 'dataDir'>,
  options: { create?: boolean } = {},
): Buffer {
  if (config.masterKey) return config.masterKey;
  const file = masterKeyFile(config);
  if (options.create === false && !fs.existsSync(file)) {
    throw new Error(
      `The database holds API-key secrets, but there is no master key to decrypt them: set BIZAPI_MASTER_KEY to the key they were encrypted with, or restore ${file}. A new key is only generated for a database without secrets.`,
    );
  }
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = parseMasterKey(fs.readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a 32-byte key (64 hex characters)`);
  return key;
}
