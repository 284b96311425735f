import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How far a projection has read the event log: position (xid, seq). */
@Entity({ name: 'projection_checkpoints' })
export class ProjectionCheckpointEntity {
  @PrimaryColumn({ type: 'text' }) projection!: string;
  @Column({ type: 'text', name: 'last_xid', insert: false, update: false }) lastXid!: string;
  @Column({ type: 'bigint', name: 'last_seq' }) lastSeq!: string;
  @Column({ type: 'timestamptz', name: 'updated_at' }) updatedAt!: Date;
}
