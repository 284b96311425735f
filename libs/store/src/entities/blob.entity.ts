import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Content-addressed bytes: `hash` is the SHA-256 of `bytes`. */
@Entity({ name: 'blobs' })
export class BlobEntity {
  @PrimaryColumn({ type: 'bytea' }) hash!: Buffer;
  @Column({ type: 'bytea' }) bytes!: Buffer;
}
