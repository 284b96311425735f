/** Why a projection query refused its input; the API's exception filter maps the codes to statuses. */
export type StoreQueryErrorCode =
  /** No such object (or it did not exist yet at the `at=` asked for). */
  | 'object-not-found'
  /** A pagination cursor that this service did not hand out. */
  | 'invalid-cursor';

export class StoreQueryError extends Error {
  override readonly name = 'StoreQueryError';
  constructor(
    readonly code: StoreQueryErrorCode,
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }
}
