import { createHmac, type KeyObject } from 'node:crypto';
import { canonicalJson } from './hash.util.js';
import type { KubeObject, Observation } from './observation.types.js';

/** The annotation where client-side apply keeps a full copy of what was applied. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

// `sha256:` is the former, unkeyed scheme: values stored (or queued) with it are kept as they are.
const HASHED = /^(hmac-sha256|sha256):[0-9a-f]{64}$/;

/**
 * The stand-in for a sensitive value: `hmac-sha256:<hex>`, the HMAC-SHA-256 of its canonical JSON
 * under the deployment's key (without the key, a guessed value cannot be confirmed).
 * Idempotent: a value that already is such a hash is kept, so redacting twice (producer, then
 * store) changes nothing.
 */
export function hashValue(value: unknown, key: KeyObject): string {
  if (typeof value === 'string' && HASHED.test(value)) return value;
  return `hmac-sha256:${createHmac('sha256', key).update(canonicalJson(value)).digest('hex')}`;
}

/** True when values of this kind must never be stored: `Kind` matches any group, `Kind.group` one group. */
export function isSensitiveKind(kind: string, group: string, sensitiveKinds: readonly string[]): boolean {
  return sensitiveKinds.some((k) => {
    const dot = k.indexOf('.');
    return dot === -1 ? k === kind : k.slice(0, dot) === kind && k.slice(dot + 1) === group;
  });
}

/** Replaces every leaf value below `value` by its hash, keeping the structure (the field paths). */
function hashLeaves(value: unknown, key: KeyObject): unknown {
  if (Array.isArray(value)) return value.map((v) => hashLeaves(v, key));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = hashLeaves(v, key);
    return out;
  }
  return hashValue(value, key);
}

const KEPT_METADATA = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'ownerReferences', 'finalizers', 'managedFields', 'generateName']);

/** Redacts a whole manifest: identity and metadata stay readable; every other value becomes a hash. */
function redactManifest(obj: Record<string, unknown>, key: KeyObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'apiVersion' || k === 'kind') out[k] = v;
    else if (k === 'metadata' && v && typeof v === 'object' && !Array.isArray(v)) out[k] = redactMetadata(v as Record<string, unknown>, key);
    else out[k] = hashLeaves(v, key);
  }
  return out;
}

function redactMetadata(meta: Record<string, unknown>, key: KeyObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) {
    if (k === 'annotations' && v && typeof v === 'object' && !Array.isArray(v)) out[k] = redactAnnotations(v as Record<string, unknown>, key);
    else out[k] = KEPT_METADATA.has(k) ? v : hashLeaves(v, key);
  }
  return out;
}

function redactAnnotations(annotations: Record<string, unknown>, key: KeyObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(annotations)) {
    out[k] = k === LAST_APPLIED_ANNOTATION && typeof v === 'string' ? redactLastApplied(v, key) : hashValue(v, key);
  }
  return out;
}

/** The annotation holds the applied manifest as JSON: keep its paths, hash its values. */
function redactLastApplied(json: string, key: KeyObject): string {
  if (HASHED.test(json)) return json;
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return canonicalJson(redactManifest(parsed as Record<string, unknown>, key));
  } catch {
    // not JSON: fall through and hash it whole
  }
  return hashValue(json, key);
}

/** A copy of the object with every value of a sensitive kind hashed (paths kept). */
export function redactObject(object: KubeObject, key: KeyObject): KubeObject {
  return redactManifest(object as unknown as Record<string, unknown>, key) as unknown as KubeObject;
}

/** Redacts the observation when its kind is sensitive; returns the same observation otherwise. */
export function redactObservation(observation: Observation, sensitiveKinds: readonly string[], key: KeyObject): Observation {
  const { kind, group } = observation.resource;
  if (!isSensitiveKind(kind, group, sensitiveKinds)) return observation;
  return { ...observation, object: redactObject(observation.object, key) };
}
