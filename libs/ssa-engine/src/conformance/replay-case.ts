import { FieldManager, type KubeObject } from '../apiserver/field-manager.js';
import { updateScale } from '../apiserver/scale.js';
import { restoreUnchangedTimestamps } from '../apiserver/restore-timestamps.js';
import { SsaEngineError } from '../errors.js';
import { ConflictError, conflictStatus } from '../merge/conflict.js';
import { BUILTIN_SCHEMA, builtinTypeName } from '../schema/builtin-schema.js';
import { DEDUCED_TYPE, type ResolvedType } from '../schema/resolved-schema.js';
import { normalizerFor } from '../apiserver/normalize.js';
import type { ConformanceCase, ConformanceStep } from './conformance-case.js';

/** What one step produced. */
export type StepOutcome =
  | { readonly kind: 'object'; readonly object: KubeObject }
  | { readonly kind: 'conflict'; readonly error: ConflictError }
  | { readonly kind: 'error'; readonly message: string };

export interface StepMismatch {
  readonly step: number;
  readonly reason: string;
  readonly expected: string;
  readonly actual: string;
}

function splitKind(k: string): { apiVersion: string; kind: string } {
  const i = k.lastIndexOf(' ');
  return { apiVersion: k.slice(0, i), kind: k.slice(i + 1) };
}

function typeFor(c: ConformanceCase, apiVersion: string, kind: string): ResolvedType {
  if (c.schema === 'deduced') return DEDUCED_TYPE;
  const name = builtinTypeName(apiVersion, kind);
  if (!name) throw new Error(`no bundled schema for ${apiVersion} ${kind}`);
  return BUILTIN_SCHEMA.type(name);
}

/**
 * Runs one step against `live` the way the apiserver would. The recorder did not model the
 * registry strategies' reset fields (see the status-subresource case), so none are applied here.
 */
export function runStep(c: ConformanceCase, step: ConformanceStep, live: KubeObject | undefined): StepOutcome {
  const { apiVersion, kind } = splitKind(c.kind);
  const builtin = c.schema === 'builtin';
  const norm = normalizerFor({ apiVersion, kind }, builtin);
  const sub = step.subresource ?? '';
  const now = () => step.time;
  try {
    if (sub === 'scale') {
      if (!live) throw new SsaEngineError('invalid-apply', 'scale of an object that does not exist');
      const scaled = updateScale(live, step.object, step.manager, { now, parentType: typeFor(c, apiVersion, kind), normalize: norm.normalize });
      return { kind: 'object', object: restoreUnchangedTimestamps(live, scaled) };
    }
    const fm = new FieldManager({
      type: typeFor(c, apiVersion, kind),
      apiVersion,
      kind,
      subresource: sub,
      now,
      normalize: norm.normalize,
      emptyObject: norm.emptyObject,
      fieldsV1Order: builtin ? 'smd' : 'sorted-keys',
    });
    const object =
      step.op === 'apply'
        ? fm.apply(live, step.object, step.manager, step.force ?? false)
        : fm.update(live, norm.normalize(step.object), step.manager);
    return { kind: 'object', object: live ? restoreUnchangedTimestamps(live, object) : object };
  } catch (e) {
    if (e instanceof ConflictError) return { kind: 'conflict', error: e };
    if (e instanceof SsaEngineError) return { kind: 'error', message: e.message };
    throw e;
  }
}

function multiset(items: readonly unknown[]): string[] {
  return items.map((i) => JSON.stringify(i)).sort();
}

/** Compares a step's outcome with its expectation; `undefined` when they agree. */
export function checkStep(step: ConformanceStep, out: StepOutcome, index: number): StepMismatch | undefined {
  const x = step.expect;
  const mismatch = (reason: string, expected: unknown, actual: unknown): StepMismatch => ({
    step: index,
    reason,
    expected: typeof expected === 'string' ? expected : JSON.stringify(expected),
    actual: typeof actual === 'string' ? actual : JSON.stringify(actual),
  });
  if (x.object) {
    if (out.kind !== 'object') return mismatch('expected an object', x.object, out.kind === 'conflict' ? out.error.message : out.message);
    const want = JSON.stringify(x.object);
    const got = JSON.stringify(out.object);
    return want === got ? undefined : mismatch('object differs', want, got);
  }
  if (x.conflicts) {
    if (out.kind !== 'conflict') return mismatch('expected conflicts', x.message, out.kind === 'object' ? out.object : out.message);
    const got = out.error.conflicts.map((c) => ({
      manager: c.manager,
      operation: c.operation,
      ...(c.apiVersion && c.operation === 'Update' ? { apiVersion: c.apiVersion } : {}),
      ...(c.subresource ? { subresource: c.subresource } : {}),
      path: c.field,
    }));
    const want = x.conflicts.map((c) => ({
      manager: c.manager,
      operation: c.operation,
      ...(c.apiVersion && c.operation === 'Update' ? { apiVersion: c.apiVersion } : {}),
      ...(c.subresource ? { subresource: c.subresource } : {}),
      path: c.path,
    }));
    if (JSON.stringify(multiset(got)) !== JSON.stringify(multiset(want))) return mismatch('conflicts differ', want, got);
    if (x.message !== undefined && x.message !== out.error.message) return mismatch('conflict message differs', x.message, out.error.message);
    if (x.status) {
      const s = conflictStatus(out.error.conflicts) as { details: { causes: unknown[] } };
      const ws = x.status as unknown as { details: { causes: unknown[] } };
      const norm = (v: { details: { causes: unknown[] } }) => JSON.stringify({ ...v, details: { causes: multiset(v.details.causes) } });
      if (norm(s) !== norm(ws)) return mismatch('status differs', x.status, s);
    }
    return undefined;
  }
  if (x.error !== undefined) {
    if (out.kind !== 'error') return mismatch('expected an error', x.error, out.kind === 'object' ? out.object : out.error.message);
    return x.error === out.message ? undefined : mismatch('error message differs', x.error, out.message);
  }
  return mismatch('step has no expectation', '', '');
}

export interface CaseResult {
  readonly name: string;
  readonly steps: number;
  readonly mismatches: readonly StepMismatch[];
}

/**
 * Replays a case through the engine: each step runs against the object the engine produced for
 * the previous steps (a failed write leaves it unchanged), and is checked against the record.
 */
export function replayCase(c: ConformanceCase): CaseResult {
  let live: KubeObject | undefined;
  const mismatches: StepMismatch[] = [];
  c.steps.forEach((step, i) => {
    let out: StepOutcome;
    try {
      out = runStep(c, step, live);
    } catch (e) {
      out = { kind: 'error', message: `engine crashed: ${(e as Error).stack ?? String(e)}` };
    }
    const m = checkStep(step, out, i);
    if (m) mismatches.push(m);
    if (out.kind === 'object') live = out.object;
  });
  return { name: c.name, steps: c.steps.length, mismatches };
}
