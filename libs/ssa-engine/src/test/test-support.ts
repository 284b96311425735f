/**
 * Shared set-up for the engine's specs: the recorded corpus, field managers for bundled kinds and
 * hand-written schemas, and small helpers to read managedFields. Test-only (uses node:fs).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FieldManager, type KubeObject } from '../apiserver/field-manager.js';
import { normalizerFor } from '../apiserver/normalize.js';
import type { ConformanceCase } from '../conformance/conformance-case.js';
import { FieldSet } from '../fieldpath/field-set.js';
import { parseFieldsV1 } from '../fieldpath/fields-v1.js';
import { fieldName } from '../fieldpath/path-element.js';
import { BUILTIN_SCHEMA, builtinTypeName } from '../schema/builtin-schema.js';
import { DEDUCED_TYPE, Schema, type ResolvedType } from '../schema/resolved-schema.js';
import type { TypeDef } from '../schema/schema.js';
import type { Value, ValueMap } from '../value/value.js';

export const CASES_DIR = path.resolve(process.cwd(), '../shared/conformance/cases');

/** Every recorded case, by file name (sorted). */
export function loadCases(): { file: string; c: ConformanceCase }[] {
  return readdirSync(CASES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, c: JSON.parse(readFileSync(path.join(CASES_DIR, file), 'utf8')) as ConformanceCase }));
}

/** The paths the apiserver strips from the operating manager's set (05 §3 step 8). */
export const STRIPPED_METADATA = FieldSet.fromPaths(
  [
    ['apiVersion'],
    ['kind'],
    ['metadata'],
    ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((n) => ['metadata', n]),
  ].map((p) => p.map(fieldName)),
);

/** The schema type a case's objects have (as the replay uses it). */
export function caseType(c: ConformanceCase): ResolvedType {
  if (c.schema === 'deduced') return DEDUCED_TYPE;
  const { apiVersion, kind } = splitKind(c.kind);
  const name = builtinTypeName(apiVersion, kind);
  if (!name) throw new Error(`no bundled schema for ${c.kind}`);
  return BUILTIN_SCHEMA.type(name);
}

export function splitKind(k: string): { apiVersion: string; kind: string } {
  const i = k.lastIndexOf(' ');
  return { apiVersion: k.slice(0, i), kind: k.slice(i + 1) };
}

/** A fixed clock: each call returns the next second from 2026-01-01T10:00:00Z (or `times`). */
export function steppingClock(start = Date.UTC(2026, 0, 1, 10, 0, 0)): { now: () => string; tick: () => void } {
  let t = start;
  return { now: () => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z'), tick: () => (t += 1000) };
}

export interface ManagerOptions {
  readonly subresource?: string;
  readonly now?: () => string;
  readonly resetFields?: FieldSet;
  readonly maxUpdateManagers?: number;
}

/** A FieldManager for a bundled built-in kind (`apps/v1`, `Deployment`), as the replay builds it. */
export function builtinManager(apiVersion: string, kind: string, o: ManagerOptions = {}): FieldManager {
  const norm = normalizerFor({ apiVersion, kind }, true);
  const name = builtinTypeName(apiVersion, kind);
  if (!name) throw new Error(`no bundled schema for ${apiVersion} ${kind}`);
  return new FieldManager({
    type: BUILTIN_SCHEMA.type(name),
    apiVersion,
    kind,
    now: o.now ?? steppingClock().now,
    normalize: norm.normalize,
    emptyObject: norm.emptyObject,
    fieldsV1Order: 'smd',
    ...(o.subresource ? { subresource: o.subresource } : {}),
    ...(o.resetFields ? { resetFields: o.resetFields } : {}),
    ...(o.maxUpdateManagers ? { maxUpdateManagers: o.maxUpdateManagers } : {}),
  });
}

/** A FieldManager for a custom kind `example.com/v1 Thing` typed by `root` of a hand-written schema (or deduced). */
export function customManager(types: readonly TypeDef[] | 'deduced', root = 'root', o: ManagerOptions & { apiVersion?: string } = {}): FieldManager {
  const apiVersion = o.apiVersion ?? 'example.com/v1';
  const norm = normalizerFor({ apiVersion, kind: 'Thing' }, false);
  return new FieldManager({
    type: types === 'deduced' ? DEDUCED_TYPE : new Schema({ types }).type(root),
    apiVersion,
    kind: 'Thing',
    now: o.now ?? steppingClock().now,
    normalize: norm.normalize,
    emptyObject: norm.emptyObject,
    fieldsV1Order: 'sorted-keys',
    ...(o.subresource ? { subresource: o.subresource } : {}),
  });
}

/** A custom object `{apiVersion, kind, metadata:{name}, ...body}`. */
export function thing(body: Record<string, Value>, apiVersion = 'example.com/v1'): KubeObject {
  return { apiVersion, kind: 'Thing', metadata: { name: 't' }, ...body };
}

export interface Entry {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly subresource?: string;
  readonly time?: string;
  readonly fieldsV1?: object;
}

export function entries(obj: Value | undefined): Entry[] {
  const md = (obj as ValueMap | undefined)?.['metadata'] as ValueMap | undefined;
  return ((md?.['managedFields'] as unknown as Entry[] | undefined) ?? []).slice();
}

export function entryOf(obj: Value | undefined, manager: string, operation?: 'Apply' | 'Update'): Entry | undefined {
  return entries(obj).find((e) => e.manager === manager && (operation === undefined || e.operation === operation));
}

/** The human paths a manager owns (`[]` when it has no entry). */
export function owned(obj: Value | undefined, manager: string, operation?: 'Apply' | 'Update'): string[] {
  const e = entryOf(obj, manager, operation);
  return e?.fieldsV1 ? parseFieldsV1(e.fieldsV1).toHumanPaths() : [];
}

/** The FieldsV1 bytes of a manager's entry. */
export function fieldsV1Of(obj: Value | undefined, manager: string, operation?: 'Apply' | 'Update'): string | undefined {
  const e = entryOf(obj, manager, operation);
  return e ? JSON.stringify(e.fieldsV1 ?? {}) : undefined;
}

/** The error a call throws (fails the test when it does not throw). */
export function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error, none was thrown');
}
