/**
 * API-key secrets at rest (decisions §3): AES-256-GCM under the master key, and the master key itself,
 * taken from configuration or generated once into `<dataDir>/master.key` with mode 0600.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, resolveMasterKey } from '../../src/modules/auth/secret-box.ts';

const keyA = Buffer.alloc(32, 0xa1);
const keyB = Buffer.alloc(32, 0xb2);

/** Flips one bit of the base64 part `index` (1 iv, 2 tag, 3 ciphertext) of a boxed secret. */
function tamper(boxed: string, index: 1 | 2 | 3): string {
  const parts = boxed.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[index] = bytes.toString('base64');
  return parts.join('.');
}

describe('encryptSecret / decryptSecret', () => {
  it('round-trips ASCII, Korean and empty text', () => {
    for (const text of ['sk_live_abcdef0123456789', '비밀 열쇠 🔑', '']) {
      expect(decryptSecret(keyA, encryptSecret(keyA, text))).toBe(text);
    }
  });

  it('does not contain the plaintext', () => {
    const secret = 'sk_live_plaintext_marker';
    const boxed = encryptSecret(keyA, secret);
    expect(boxed).not.toContain(secret);
    expect(boxed).not.toContain(Buffer.from(secret).toString('base64'));
    expect(boxed.startsWith('v1.')).toBe(true);
  });

  it('uses a random IV: two encryptions of the same text differ', () => {
    const a = encryptSecret(keyA, 'same text');
    const b = encryptSecret(keyA, 'same text');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
    expect(decryptSecret(keyA, a)).toBe('same text');
    expect(decryptSecret(keyA, b)).toBe('same text');
  });

  it('fails to decrypt under another master key', () => {
    const boxed = encryptSecret(keyA, 'secret');
    expect(() => decryptSecret(keyB, boxed)).toThrow();
  });

  it('throws on a tampered IV, tag or ciphertext', () => {
    const boxed = encryptSecret(keyA, 'a secret long enough to tamper with');
    for (const index of [1, 2, 3] as const) {
      expect(() => decryptSecret(keyA, tamper(boxed, index))).toThrow();
    }
  });

  it('throws on a truncated ciphertext', () => {
    const boxed = encryptSecret(keyA, 'a secret long enough to truncate');
    const parts = boxed.split('.');
    parts[3] = Buffer.from(parts[3]!, 'base64').subarray(0, 4).toString('base64');
    expect(() => decryptSecret(keyA, parts.join('.'))).toThrow();
  });

  it('throws on malformed text', () => {
    for (const text of ['', 'v1', 'v1.a.b', 'v2.AAAA.AAAA.AAAA', 'plain secret']) {
      expect(() => decryptSecret(keyA, text)).toThrow();
    }
  });
});

describe('resolveMasterKey', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-secret-box-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates <dataDir>/master.key (64 hex, mode 0600) and returns the same key afterwards', () => {
    const dataDir = path.join(dir, 'nested', 'data');
    const first = resolveMasterKey({ masterKey: undefined, dataDir });
    expect(first).toHaveLength(32);
    const file = path.join(dataDir, 'master.key');
    expect(fs.readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex').equals(first)).toBe(true);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const second = resolveMasterKey({ masterKey: undefined, dataDir });
    expect(second.equals(first)).toBe(true);
    expect(decryptSecret(second, encryptSecret(first, 'persisted'))).toBe('persisted');
  });

  it('generates different keys for different data directories', () => {
    const a = resolveMasterKey({ masterKey: undefined, dataDir: path.join(dir, 'a') });
    const b = resolveMasterKey({ masterKey: undefined, dataDir: path.join(dir, 'b') });
    expect(a.equals(b)).toBe(false);
  });

  it('prefers config.masterKey and writes no file', () => {
    const key = resolveMasterKey({ masterKey: keyB, dataDir: dir });
    expect(key.equals(keyB)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'master.key'))).toBe(false);
  });

  it('prefers config.masterKey over an existing file', () => {
    const fromFile = resolveMasterKey({ masterKey: undefined, dataDir: dir });
    const configured = resolveMasterKey({ masterKey: keyA, dataDir: dir });
    expect(configured.equals(keyA)).toBe(true);
    expect(configured.equals(fromFile)).toBe(false);
  });

  it('reads an existing hand-written key file', () => {
    fs.writeFileSync(path.join(dir, 'master.key'), `${keyB.toString('hex')}\n`, { mode: 0o600 });
    expect(resolveMasterKey({ masterKey: undefined, dataDir: dir }).equals(keyB)).toBe(true);
  });

  it('throws on a corrupt key file and leaves it in place', () => {
    const file = path.join(dir, 'master.key');
    fs.writeFileSync(file, 'not a key\n', { mode: 0o600 });
    expect(() => resolveMasterKey({ masterKey: undefined, dataDir: dir })).toThrow(/master\.key/);
    expect(fs.readFileSync(file, 'utf8')).toBe('not a key\n');
  });

  it('throws on an empty or short key file', () => {
    const file = path.join(dir, 'master.key');
    fs.writeFileSync(file, '');
    expect(() => resolveMasterKey({ masterKey: undefined, dataDir: dir })).toThrow();
    fs.writeFileSync(file, 'ab'.repeat(16));
    expect(() => resolveMasterKey({ masterKey: undefined, dataDir: dir })).toThrow();
  });
});
