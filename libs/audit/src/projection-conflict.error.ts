/**
 * Another writer stored a state of the batch after it was loaded (an append folding its object's
 * new events, or the log walk): the batch was rolled back and must be folded again from what is
 * stored now. Thrown by a store's `save`; the log walk starts again from its checkpoint.
 */
export class ProjectionConflictError extends Error {
  constructor(readonly objects: number) {
    super(`${objects} projection state(s) changed since they were loaded: fold again`);
    this.name = 'ProjectionConflictError';
  }
}
