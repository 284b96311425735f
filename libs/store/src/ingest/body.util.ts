import { applyPatch, type Operation } from 'rfc6902';
import { diffJson } from './json-diff.util.js';
import type { KubeObject } from '../../../common/src/index.js';

export type BodyEncoding = 'full' | 'json-patch';
export type Body = Record<string, unknown>;

/** The body as stored: the object without `metadata.managedFields` and `metadata.resourceVersion` (both are event columns). */
export function storedBody(object: KubeObject): Body {
  const { managedFields: _mf, resourceVersion: _rv, ...metadata } = object.metadata;
  return { ...(object as unknown as Body), metadata };
}

/** Encodes a body as a full snapshot or as an RFC 6902 patch against the previous body. */
export function encodeBody(previous: Body | null, next: Body, full: boolean): { encoding: BodyEncoding; json: string } {
  if (full || previous === null) return { encoding: 'full', json: JSON.stringify(next) };
  const patch = diffJson(previous, next);
  const json = JSON.stringify(patch);
  // A patch cannot carry a "__proto__" key through applyPatch (it would be dropped or set a prototype),
  // nor replace the root: store those bodies whole (JSON.parse keeps "__proto__" as a plain key).
  if (json.includes('"__proto__"') || patch.some((op) => op.path === '')) return { encoding: 'full', json: JSON.stringify(next) };
  return { encoding: 'json-patch', json };
}

/** Rebuilds a body from its last full snapshot and the patches after it (oldest first). */
export function decodeBody(parts: readonly { encoding: BodyEncoding; json: string }[]): Body {
  return decodeParsedBody(parts.map((p) => ({ encoding: p.encoding, doc: JSON.parse(p.json) as unknown })));
}

/** `decodeBody` of parts already parsed (as Postgres returns a `json` column); the parts are used up. */
export function decodeParsedBody(parts: readonly { encoding: BodyEncoding; doc: unknown }[]): Body {
  const [first, ...rest] = parts;
  if (!first || first.encoding !== 'full') throw new Error('a body chain must start with a full snapshot');
  let body = first.doc as Body;
  for (const p of rest) {
    if (p.encoding === 'full') {
      body = p.doc as Body;
      continue;
    }
    const errors = applyPatch(body, p.doc as Operation[]).filter((e) => e !== null);
    if (errors.length > 0) throw new Error(`body patch does not apply: ${String(errors[0])}`);
  }
  return body;
}

/**
 * The bodies of a chain (a full snapshot, then patches, oldest first), one independent body per
 * part that `wanted(index)` asks for (every part by default; `undefined` for the others). A body is
 * copied only where a later patch would change it in place.
 */
export function decodeBodyChain(parts: readonly { encoding: BodyEncoding; json: string }[], wanted: (index: number) => boolean = () => true): (Body | undefined)[] {
  const out: (Body | undefined)[] = [];
  let body: Body | null = null;
  parts.forEach((p, i) => {
    if (p.encoding === 'full') body = JSON.parse(p.json) as Body;
    else {
      if (body === null) throw new Error('a body chain must start with a full snapshot');
      const errors = applyPatch(body, JSON.parse(p.json) as Operation[]).filter((e) => e !== null);
      if (errors.length > 0) throw new Error(`body patch does not apply: ${String(errors[0])}`);
    }
    if (!wanted(i)) out.push(undefined);
    else out.push(parts[i + 1]?.encoding === 'json-patch' ? structuredClone(body) : body);
  });
  return out;
}
