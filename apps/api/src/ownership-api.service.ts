import { Inject, Injectable } from '@nestjs/common';
import { parse as parseYaml } from 'yaml';
import {
  AuditError,
  AuthError,
  kubectlConflictStderr,
  parseAt,
  schemaUsed,
  simulateApply,
  type AnswerNote,
  type AsOf,
  type Caller,
  type FieldOwner,
  type FieldTransition,
  type ObjectOwnershipState,
  type OwnershipSnapshot,
  type OwnershipNode,
} from '../../../libs/audit/src/index.js';
import { OwnershipQueries } from '../../../libs/store/src/index.js';
import { ObjectVisibility } from './object-visibility.service.js';
import type { ExplainResponseDto, FieldHistoryResponseDto, FieldRequestDto, FieldResponseDto, ListObjectsRequestDto, ListObjectsResponseDto, OwnershipRequestDto, OwnershipResponseDto, TransitionsRequestDto, TransitionsResponseDto } from './objects.dto.js';
import type { ListManagersRequestDto, ListManagersResponseDto, ManagerFieldsRequestDto, ManagerFieldsResponseDto } from './managers.dto.js';
import type { ListFindingsRequestDto, ListFindingsResponseDto } from './findings.dto.js';
import type { SimulateApplyRequestDto, SimulateApplyResponseDto } from './simulate.dto.js';
import type { OwnerDto } from './common.dto.js';

const asOf = (at: string | undefined): AsOf | undefined => (at === undefined ? undefined : parseAt(at));

/** An owner in the fixed response shape (`since` as a time, with its sequence beside it). */
function owner(o: Omit<FieldOwner, 'sinceFirstObservation'> & { sinceFirstObservation?: boolean }): OwnerDto {
  return {
    manager: o.manager,
    operation: o.operation,
    subresource: o.subresource ?? '',
    apiVersion: o.apiVersion ?? '',
    since: o.since.at,
    sinceSeq: o.since.seq,
    sinceFirstObservation: o.sinceFirstObservation ?? false,
  };
}

function objectItem(s: OwnershipSnapshot) {
  return {
    id: s.objectId, cluster: s.cluster, uid: s.uid, group: s.group, version: s.version, kind: s.kind,
    namespace: s.namespace, name: s.name, deleted: s.deleted, lastSeq: s.lastSeq, lastAt: s.lastAt,
  };
}

/** A note in the response shape: its code and sentence only. */
const note = (n: AnswerNote) => ({ code: n.code, message: n.message });

function node(n: OwnershipNode): OwnershipResponseDto['tree'] {
  const shaped = { segment: n.segment, path: n.path, fieldsV1Path: n.fieldsV1Path, owned: n.owned, owners: n.owners.map(owner), children: n.children.map(node) };
  return 'value' in n ? { ...shaped, value: n.value } : shaped;
}

function transition(t: FieldTransition) {
  return {
    at: t.at, seq: t.seq, type: t.type, manager: t.manager, operation: t.operation, subresource: t.subresource, apiVersion: t.apiVersion,
    owners: [...t.owners], from: [...t.from], valueChanged: t.valueChanged, reconstructed: t.reconstructed, notes: [...t.notes],
  };
}

/** The /v1 answers: parses `at=`, asks the store's projection queries, and shapes the results as the API's DTOs. */
@Injectable()
export class OwnershipApiService {
  constructor(
    @Inject(OwnershipQueries) private readonly queries: OwnershipQueries,
    @Inject(ObjectVisibility) private readonly visibility: ObjectVisibility,
  ) {}

  /** Only what the caller may `get`: a page can hold fewer than `limit` items; `nextCursor` goes on. */
  async listObjects(q: ListObjectsRequestDto, caller: Caller): Promise<ListObjectsResponseDto> {
    const { at, cursor, limit, ...filter } = q;
    const page = await this.queries.listObjects(filter, asOf(at), cursor, limit);
    return { items: await this.visibility.visible(caller, page.items, (o) => o.id), nextCursor: page.nextCursor };
  }

  async ownership(id: string, q: OwnershipRequestDto): Promise<OwnershipResponseDto> {
    const { state, tree } = await this.queries.ownership(id, asOf(q.at), q.values);
    return { object: objectItem(state), asOf: { seq: state.lastSeq, at: state.lastAt }, schema: schemaUsed(state.schema), tree: node(tree) };
  }

  async field(id: string, q: FieldRequestDto): Promise<FieldResponseDto> {
    const v = await this.queries.fieldOwners(id, q.path, asOf(q.at));
    return {
      path: v.path, fieldsV1Path: v.fieldsV1Path, present: v.present, value: v.value, owners: v.owners.map(owner),
      effectiveOwners: v.effectiveOwners.map((o) => ({ ...owner(o), via: o.via })), deleted: v.deleted, asOf: v.asOf, schema: schemaUsed(v.schema),
      notes: v.notes.map(note),
    };
  }

  async fieldHistory(id: string, q: FieldRequestDto): Promise<FieldHistoryResponseDto> {
    const v = await this.queries.fieldHistory(id, q.path, asOf(q.at));
    return {
      path: v.path, fieldsV1Path: v.fieldsV1Path,
      transitions: v.transitions.map((t) => transition(t as FieldTransition)),
      values: v.values.map((x) => ({ at: x.at, seq: x.seq, present: x.present, value: x.value, reconstructed: x.reconstructed })),
      schema: schemaUsed(v.schema),
    };
  }

  async transitions(id: string, q: TransitionsRequestDto): Promise<TransitionsResponseDto> {
    const page = await this.queries.transitions(id, asOf(q.at), q.cursor, q.limit);
    return { items: page.items.map((t) => ({ ...transition(t), path: t.path, fieldsV1Path: t.fieldsV1Path })), nextCursor: page.nextCursor };
  }

  async explain(id: string, q: FieldRequestDto): Promise<ExplainResponseDto> {
    const v = await this.queries.explain(id, q.path, asOf(q.at));
    return {
      path: v.path,
      fieldsV1Path: v.fieldsV1Path,
      present: v.present,
      // The general cause first: "released by an applier, still co-owned" names what happened; `causes` keeps the engine's specific codes.
      cause: v.causes.includes('co-owned-after-release') ? 'co-owned-after-release' : v.cause,
      causes: [...v.causes],
      message: v.message,
      releasedBy: v.releasedBy && { manager: v.releasedBy.manager, operation: v.releasedBy.operation, subresource: v.releasedBy.subresource ?? null, at: v.releasedBy.at, seq: v.releasedBy.seq },
      remainingOwners: v.remainingOwners.map((o) => ({
        manager: o.manager, operation: o.operation, subresource: o.subresource ?? '', apiVersion: o.apiVersion ?? null,
        since: o.since?.at ?? null, sinceSeq: o.since?.seq ?? null, via: o.via, index: o.index,
      })),
      remedies: v.remedies.map((r) => ({
        kind: r.kind, summary: r.summary, command: r.command, commands: [...r.commands],
        patch: r.patch ? r.patch.map((p) => ({ ...p })) : null, warning: r.warning,
      })),
      notes: v.notes.map(note),
      objectDeleted: v.objectDeleted,
      schema: schemaUsed(v.schema),
    };
  }

  async managers(q: ListManagersRequestDto, caller: Caller): Promise<ListManagersResponseDto> {
    const page = await this.queries.managers(asOf(q.at), q.cursor, q.limit, await this.visibility.scopes(caller), q.cluster);
    return { items: page.items.map((m) => ({ ...m, identities: [...m.identities] })), nextCursor: page.nextCursor };
  }

  async managerFields(name: string, q: ManagerFieldsRequestDto, caller: Caller): Promise<ManagerFieldsResponseDto> {
    const { at, cursor, limit, ...filter } = q;
    const page = await this.queries.managerFields(name, filter, asOf(at), cursor, limit, (await this.visibility.scopes(caller))?.allowed);
    return {
      items: page.items.map((o) => ({
        object: { id: o.objectId, cluster: o.cluster, uid: o.uid, group: o.group, version: o.version, kind: o.kind, namespace: o.namespace, name: o.name },
        fields: o.fields.map((f) => {
          const { manager: _m, sinceFirstObservation: _s, ...rest } = owner({ ...f, manager: name });
          return { path: f.path, fieldsV1Path: f.fieldsV1Path, ...rest };
        }),
      })),
      nextCursor: page.nextCursor,
    };
  }

  async findings(q: ListFindingsRequestDto, caller: Caller): Promise<ListFindingsResponseDto> {
    const page = await this.queries.findings({ types: q.type, since: asOf(q.since), at: asOf(q.at), cluster: q.cluster }, q.cursor, q.limit, await this.visibility.scopes(caller));
    return {
      items: page.items.map((f) => ({
        type: f.type, objectId: f.objectId, cluster: f.cluster, group: f.group, version: f.version, kind: f.kind,
        namespace: f.namespace, name: f.name, path: f.path, fieldsV1Path: f.fieldsV1Path, managers: [...f.managers],
        owners: f.owners.map(owner), since: f.since.at, sinceSeq: f.since.seq, message: f.message,
      })),
      nextCursor: page.nextCursor,
    };
  }

  /** Needs `get` on the object the manifest names (403 otherwise, whether it exists or not). */
  async simulateApply(body: SimulateApplyRequestDto, caller: Caller): Promise<SimulateApplyResponseDto> {
    const manifest = typeof body.manifest === 'string' ? parseManifest(body.manifest) : body.manifest;
    const apiVersion = typeof manifest['apiVersion'] === 'string' ? manifest['apiVersion'] : '';
    const metadata = (manifest['metadata'] ?? {}) as { name?: unknown; namespace?: unknown };
    if (typeof metadata.name !== 'string' || metadata.name === '') throw new AuditError('invalid-manifest', 'the manifest needs metadata.name', 'manifest');
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : null;
    const kind = manifest['kind'];
    let live: ObjectOwnershipState | undefined;
    if (typeof kind === 'string') {
      await this.mustMayGet(caller, body.cluster, group, kind, namespace, metadata.name);
      live = await this.queries.liveObject(body.cluster, group, kind, namespace, metadata.name);
    }
    const r = simulateApply({ live: live?.object, config: manifest, manager: body.manager, force: body.force, cluster: body.cluster, schema: await this.queries.schemaResolver() });
    return {
      objectId: live?.objectId ?? null,
      conflicts: r.conflicts.map((c) => ({ manager: c.manager, path: c.path, operation: c.operation, subresource: c.subresource, apiVersion: c.apiVersion })),
      message: r.message,
      kubectlStderr: r.message === null ? null : kubectlConflictStderr([r.message]),
      pruned: [...r.pruned],
      kept: r.kept.map((k) => ({ path: k.path, owners: [...k.owners] })),
      result: r.result as SimulateApplyResponseDto['result'],
      schema: schemaUsed(r.schema!),
      notes: r.notes.map(note),
    };
  }

  private async mustMayGet(caller: Caller, cluster: string, group: string, kind: string, namespace: string | null, name: string): Promise<void> {
    if (await this.visibility.mayGetNamed(caller, cluster, group, kind, namespace, name)) return;
    throw new AuthError('forbidden', `${caller.username} may not get ${kind} "${name}"${namespace === null ? '' : ` in ${namespace}`} in cluster ${cluster}: simulating an apply needs what reading the object needs`);
  }
}

function parseManifest(text: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new AuditError('invalid-manifest', `the manifest is not valid YAML: ${(e as Error).message.split('\n')[0]}`, 'manifest');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new AuditError('invalid-manifest', 'the manifest must be a YAML mapping (one object)', 'manifest');
  return doc as Record<string, unknown>;
}
