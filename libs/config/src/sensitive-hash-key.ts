import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './config.exception.js';
import type { ConfigIssue, SensitiveHashKeyConfig } from './config.types.js';

/** The generated key's file name under DATA_DIR (embedded mode only). */
export const GENERATED_KEY_FILE = 'sensitive-hash.key';

/** Shorter keys make the HMAC guessable again (RFC 2104: at least the hash's output length). */
const MIN_KEY_BYTES = 32;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const blank = (v: string | undefined) => v === undefined || v.trim() === '';

/**
 * The key's bytes from its text form: `base64:<base64>` or the raw bytes themselves; at least 32 bytes.
 * Returns a message (never showing the key) when it does not qualify.
 */
function keyOf(raw: Buffer): KeyObject | string {
  const text = raw.toString('latin1');
  let bytes = raw;
  if (text.startsWith('base64:')) {
    const b64 = text.slice('base64:'.length).trim();
    if (!BASE64.test(b64) || b64.length % 4 !== 0) return 'after "base64:" must come base64 (value not shown)';
    bytes = Buffer.from(b64, 'base64');
  }
  if (bytes.length < MIN_KEY_BYTES) return `must be at least ${MIN_KEY_BYTES} bytes (got ${bytes.length}; value not shown), e.g. "base64:" + \`openssl rand -base64 32\``;
  return createSecretKey(bytes);
}

/** A file's content without the line end an editor or `echo` adds. */
const withoutLineEnd = (b: Buffer) => (b.at(-1) === 0x0a ? b.subarray(0, b.at(-2) === 0x0d ? -2 : -1) : b);

/**
 * Reads SENSITIVE_HASH_KEY / SENSITIVE_HASH_KEY_FILE. With neither: `value` is undefined, fine in the
 * embedded mode (a key is generated), an issue with a real DATABASE_URL (a key that changes with the
 * pod would make every unchanged Secret read as changed, and another replica would hash differently).
 */
export function readSensitiveHashKey(env: Readonly<Record<string, string | undefined>>): {
  value?: SensitiveHashKeyConfig;
  issues: ConfigIssue[];
} {
  const inline = env['SENSITIVE_HASH_KEY'];
  const file = env['SENSITIVE_HASH_KEY_FILE'];
  if (!blank(inline) && !blank(file)) {
    return { issues: [{ variable: 'SENSITIVE_HASH_KEY', message: 'set either SENSITIVE_HASH_KEY or SENSITIVE_HASH_KEY_FILE, not both' }] };
  }
  if (!blank(inline)) {
    const key = keyOf(Buffer.from(inline!.trim(), 'utf8'));
    return typeof key === 'string' ? { issues: [{ variable: 'SENSITIVE_HASH_KEY', message: key }] } : { value: { source: 'SENSITIVE_HASH_KEY', key }, issues: [] };
  }
  if (!blank(file)) {
    let content: Buffer;
    try {
      content = readFileSync(file!.trim());
    } catch (e) {
      return { issues: [{ variable: 'SENSITIVE_HASH_KEY_FILE', message: `cannot read "${file!.trim()}": ${(e as NodeJS.ErrnoException).code ?? String(e)}` }] };
    }
    const key = keyOf(withoutLineEnd(content));
    return typeof key === 'string'
      ? { issues: [{ variable: 'SENSITIVE_HASH_KEY_FILE', message: `the file's key ${key}` }] }
      : { value: { source: 'SENSITIVE_HASH_KEY_FILE', key }, issues: [] };
  }
  if (!blank(env['DATABASE_URL'])) {
    return {
      issues: [
        {
          variable: 'SENSITIVE_HASH_KEY',
          message:
            'required with DATABASE_URL (or SENSITIVE_HASH_KEY_FILE): the key of the hashes that stand in for Secret values, the same in every process, e.g. "base64:" + `openssl rand -base64 32`',
        },
      ],
    };
  }
  return { issues: [] };
}

const generated = new Map<string, KeyObject>();

/**
 * The key itself. A generated key is read from its file, or created there (mode 0600, never
 * overwritten) on first use; memoized, so every caller in the process hashes with the same key.
 */
export function resolveSensitiveHashKey(config: SensitiveHashKeyConfig): KeyObject {
  if (config.source !== 'generated') return config.key;
  const known = generated.get(config.path);
  if (known) return known;
  try {
    mkdirSync(dirname(config.path), { recursive: true, mode: 0o700 });
    writeFileSync(config.path, `base64:${randomBytes(MIN_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new ConfigError([{ variable: 'DATA_DIR', message: `cannot create the generated hash key "${config.path}": ${(e as NodeJS.ErrnoException).code ?? String(e)}` }]);
    }
  }
  const key = keyOf(withoutLineEnd(readFileSync(config.path)));
  if (typeof key === 'string') throw new ConfigError([{ variable: 'DATA_DIR', message: `the generated hash key "${config.path}" ${key}` }]);
  generated.set(config.path, key);
  return key;
}
