import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'clusters' })
export class ClusterEntity {
  @PrimaryColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
