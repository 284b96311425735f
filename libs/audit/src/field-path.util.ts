import { storableText } from './storable-text.js';
import { parsePath, SsaEngineError, type Path, type ResolvedType } from '../../ssa-engine/src/index.js';
import { AuditError } from './audit.error.js';
import type { EventFacts } from './observed-event.types.js';
import { apiVersionOf, DEDUCED_CHOICE, schemaUsed, type SchemaResolver, type SchemaUsed } from './schema-resolver.port.js';
import { compareSeq, seqString } from './seq.util.js';

/** A parsed field path in both printed forms. */
export interface ResolvedPath {
  readonly elements: Path;
  /** FieldsV1 dotted form: the key of the path in projections. */
  readonly fieldsV1Path: string;
}

/**
 * Parses a field path in kubectl form (`.spec.containers[name="nginx"].image`) or FieldsV1 form
 * (`f:spec.f:containers.k:{"name":"nginx"}.f:image`) with the object's type (dotted map keys such
 * as `app.kubernetes.io/name` are one key). Throws `AuditError('invalid-path')` naming `path`.
 */
export function resolvePath(text: string, type?: ResolvedType): ResolvedPath {
  if (typeof text !== 'string' || text === '') throw new AuditError('invalid-path', 'path is required', 'path');
  // Stored paths are Postgres text, which cannot hold U+0000 or a lone surrogate: such a field's transitions are stored under a stand-in, not found by path.
  if (!storableText(text)) {
    throw new AuditError('invalid-path', 'a path holding U+0000 or a lone surrogate cannot be asked about (paths are stored as text, which cannot hold them)', 'path');
  }
  let elements: Path;
  try {
    elements = parsePath(text, type);
  } catch (e) {
    if (e instanceof SsaEngineError) throw new AuditError('invalid-path', e.message, 'path', e.code);
    throw e;
  }
  return { elements, fieldsV1Path: elements.map((pe) => pe.str).join('.') };
}

/** `resolvePath` with the type of the objects of `events` (their first one's; untyped without events). */
export function resolveEventsPath(events: readonly EventFacts[], text: string, schemaResolver: SchemaResolver): ResolvedPath {
  const first = events[0];
  return resolvePath(text, first ? schemaResolver(apiVersionOf(first.group, first.version), first.kind, first.cluster).type : undefined);
}

/** The schema an answer folded from `events` uses: the one of their latest event's kind. */
export function eventsSchema(events: readonly EventFacts[], schemaResolver: SchemaResolver): SchemaUsed {
  // The last in sequence order; of equal sequences the later one here (where a stable sort leaves it).
  const last = events.reduce<EventFacts | undefined>((l, e) => (l === undefined || compareSeq(seqString(e.seq), seqString(l.seq)) >= 0 ? e : l), undefined);
  return schemaUsed(last ? schemaResolver(apiVersionOf(last.group, last.version), last.kind, last.cluster) : DEDUCED_CHOICE);
}
