// Every migration, in order. Listed explicitly (no glob) so the same list works from sources and from dist/.
import { CreateEventStore1763726400000 } from './1763726400000-CreateEventStore.js';
import { CreateApiSchemas1763740800000 } from './1763740800000-CreateApiSchemas.js';
import { CreateOwnershipProjections1795266505291 } from './1795266505291-CreateOwnershipProjections.js';
import { CreateOwnershipVersions1795300000000 } from './1795300000000-CreateOwnershipVersions.js';
import { CreateDeadLettersAndWatchPositions1795400000000 } from './1795400000000-CreateDeadLettersAndWatchPositions.js';
import { BaselineTransitions1795500000000 } from './1795500000000-BaselineTransitions.js';
import { OwnershipStateSchema1795600000000 } from './1795600000000-OwnershipStateSchema.js';
import { SnapshotPatches1795700000000 } from './1795700000000-SnapshotPatches.js';
import { SchemaChoices1795750000000 } from './1795750000000-SchemaChoices.js';
import { ObjectRowsWrittenOnce1795800000000 } from './1795800000000-ObjectRowsWrittenOnce.js';
import { ObjectFindings1795900000000 } from './1795900000000-ObjectFindings.js';
import { DerivedVersions1796000000000 } from './1796000000000-DerivedVersions.js';
import { VersionTimes1796100000000 } from './1796100000000-VersionTimes.js';
import { StateUpdatesInPlace1796200000000 } from './1796200000000-StateUpdatesInPlace.js';
import { PatchPaths1796300000000 } from './1796300000000-PatchPaths.js';
import { ManagerTotals1796400000000 } from './1796400000000-ManagerTotals.js';
import { ChangePaths1796500000000 } from './1796500000000-ChangePaths.js';
import { ManagerCheckpoints1796600000000 } from './1796600000000-ManagerCheckpoints.js';
import { ManagerTimeCheckpoints1796700000000 } from './1796700000000-ManagerTimeCheckpoints.js';
import { CompressedStates1796800000000 } from './1796800000000-CompressedStates.js';
import { ObjectScopes1796900000000 } from './1796900000000-ObjectScopes.js';
import { ManagerVersionsByManager1797000000000 } from './1797000000000-ManagerVersionsByManager.js';
import { ManagerFieldsListOrder1797100000000 } from './1797100000000-ManagerFieldsListOrder.js';

export const migrations = [CreateEventStore1763726400000, CreateApiSchemas1763740800000, CreateOwnershipProjections1795266505291, CreateOwnershipVersions1795300000000, CreateDeadLettersAndWatchPositions1795400000000, BaselineTransitions1795500000000, OwnershipStateSchema1795600000000, SnapshotPatches1795700000000, SchemaChoices1795750000000, ObjectRowsWrittenOnce1795800000000, ObjectFindings1795900000000, DerivedVersions1796000000000, VersionTimes1796100000000, StateUpdatesInPlace1796200000000, PatchPaths1796300000000, ManagerTotals1796400000000, ChangePaths1796500000000, ManagerCheckpoints1796600000000, ManagerTimeCheckpoints1796700000000, CompressedStates1796800000000, ObjectScopes1796900000000, ManagerVersionsByManager1797000000000, ManagerFieldsListOrder1797100000000];
