import { BlobEntity } from './blob.entity.js';
import { ClusterEntity } from './cluster.entity.js';
import { EventEntity } from './event.entity.js';
import { KubeObjectEntity } from './kube-object.entity.js';
import { ProjectionCheckpointEntity } from './projection-checkpoint.entity.js';

export { BlobEntity, ClusterEntity, EventEntity, KubeObjectEntity, ProjectionCheckpointEntity };
export const entities = [BlobEntity, ClusterEntity, EventEntity, KubeObjectEntity, ProjectionCheckpointEntity];
