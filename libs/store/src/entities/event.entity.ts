import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BodyEncoding } from '../ingest/body.util.js';

/** One stored event (read side; appends go through explicit SQL in EventAppender). */
@Entity({ name: 'events' })
export class EventEntity {
  @PrimaryColumn({ type: 'bigint' }) seq!: string;
  /** The writing transaction (`xid8`), read as text. */
  @Column({ type: 'text', insert: false, update: false }) xid!: string;
  @Column({ type: 'bigint', name: 'object_id' }) objectId!: string;
  @Column({ type: 'text', name: 'resource_version' }) resourceVersion!: string;
  @Column({ type: 'text', name: 'api_version' }) apiVersion!: string;
  @Column({ type: 'text', name: 'event_type' }) eventType!: string;
  @Column({ type: 'text' }) source!: string;
  @PrimaryColumn({ type: 'timestamptz', name: 'observed_at' }) observedAt!: Date;
  @Column({ type: 'timestamptz', name: 'recorded_at' }) recordedAt!: Date;
  @Column({ type: 'bytea', name: 'managed_fields_hash' }) managedFieldsHash!: Buffer;
  @Column({ type: 'jsonb', name: 'managed_fields_times' }) managedFieldsTimes!: (string | null)[];
  @Column({ type: 'bytea', name: 'values_hash' }) valuesHash!: Buffer;
  @Column({ type: 'bytea', name: 'body_hash' }) bodyHash!: Buffer;
  @Column({ type: 'text', name: 'body_encoding' }) bodyEncoding!: BodyEncoding;
  /** The summary of a snapshot patch's paths (`patchPathsOf`, a signed 64-bit integer as text); null for a snapshot or an event written before. */
  @Column({ type: 'bigint', name: 'patch_paths', nullable: true }) patchPaths!: string | null;
  /** The summary of the paths whose value can differ from the event before's (`changePathsOfPatch`, as text); null for an event written before. */
  @Column({ type: 'bigint', name: 'change_paths', nullable: true }) changePaths!: string | null;
}
