import { decodeOwnershipState, type EncodedOwnershipState, type ObjectOwnershipState, type SchemaUsed } from '../../../audit/src/index.js';
import { recordedSchemaSql } from './schema-choices.js';

/** The columns that read an `ownership_states` row (alias `s`) back as a state, its recorded schema included. */
export const STATE_COLUMNS = `s.state, ${recordedSchemaSql('s')} AS schema`;

/** An `ownership_states` row as {@link STATE_COLUMNS} reads it. */
export interface StateRow {
  state: EncodedOwnershipState;
  schema: SchemaUsed | null;
}

export const stateFromRow = (r: StateRow): ObjectOwnershipState => decodeOwnershipState(r.state, r.schema);
