/** Plain JSON helpers shared by the sandbox (objects as they come off the wire). */

export type Obj = Record<string, unknown>;

export const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** An object's `metadata`, or an empty map. */
export const metaOf = (o: Obj): Obj => (isObject(o['metadata']) ? (o['metadata'] as Obj) : {});
