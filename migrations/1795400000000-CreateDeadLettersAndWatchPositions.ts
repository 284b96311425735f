import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dead letters: observations that can never be stored (a permanent error), with the reason, so an
 * ingest lane goes on past them and the hole is visible instead of silent.
 *
 * Watch positions: where the watcher resumes, per cluster, resource and ingest lane, written by the
 * ingest in the same transaction as the batch it ends, so a position never claims more than what is
 * committed. A resource's resume point is the position of the oldest checkpoint (`flush`) across all
 * lanes: every lane has committed everything up to it. `cluster_uid` is the cluster's identity (the
 * kube-system namespace's uid) the positions belong to: a replaced cluster starts with none.
 */
export class CreateDeadLettersAndWatchPositions1795400000000 implements MigrationInterface {
  name = 'CreateDeadLettersAndWatchPositions1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dead_letters (
        id bigserial NOT NULL,
        cluster text NOT NULL,
        uid text NOT NULL,
        resource_version text NOT NULL,
        api_group text NOT NULL,
        kind text NOT NULL,
        namespace text NOT NULL,
        name text NOT NULL,
        observation jsonb,
        reason text NOT NULL,
        error_code text,
        job_id text NOT NULL,
        failed_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_dead_letters PRIMARY KEY (id),
        CONSTRAINT uq_dead_letters_observation UNIQUE (cluster, uid, resource_version)
      )`);
    await q.query(`
      CREATE TABLE watch_positions (
        cluster text NOT NULL,
        resource text NOT NULL,
        lane integer NOT NULL,
        lanes integer NOT NULL,
        cluster_uid text NOT NULL,
        flush bigint NOT NULL,
        resource_version text,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_watch_positions PRIMARY KEY (cluster, resource, lane)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE watch_positions`);
    await q.query(`DROP TABLE dead_letters`);
  }
}
