import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An object as tracked across its life; an object is its uid (names are reused after delete). */
@Entity({ name: 'objects' })
export class KubeObjectEntity {
  @PrimaryColumn({ type: 'bigint' }) id!: string;
  @Column({ type: 'integer', name: 'cluster_id' }) clusterId!: number;
  @Column({ type: 'text' }) uid!: string;
  @Column({ type: 'text', name: 'api_group' }) group!: string;
  @Column({ type: 'text', name: 'api_version' }) version!: string;
  @Column({ type: 'text' }) kind!: string;
  @Column({ type: 'text' }) resource!: string;
  @Column({ type: 'text' }) namespace!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'timestamptz', name: 'first_seen_at' }) firstSeenAt!: Date;
  @Column({ type: 'timestamptz', name: 'last_seen_at' }) lastSeenAt!: Date;
  @Column({ type: 'timestamptz', name: 'deleted_at', nullable: true }) deletedAt!: Date | null;
  @Column({ type: 'bigint', name: 'last_seq', nullable: true }) lastSeq!: string | null;
}
