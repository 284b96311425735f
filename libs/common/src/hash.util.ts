import { hash } from 'node:crypto';

/** JSON with object keys sorted at every level: equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/**
 * SHA-256 of a string (as UTF-8) or bytes, as a Buffer. One-shot `crypto.hash`: no Hash object per
 * call, which is most of the cost for the small inputs of ingest (a few hundred bytes each).
 */
export function sha256(data: string | Uint8Array): Buffer {
  return hash('sha256', data, 'buffer');
}

export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}
