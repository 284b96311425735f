/**
 * The largest object etcd stores by default (its request limit, `--max-request-bytes`): a page's first
 * guess per object. A guess, not a ceiling: that is the stored form, and an object's JSON can be larger.
 */
export const LARGEST_OBJECT_BYTES = 1.5 * 1024 * 1024;

/**
 * The `limit` of each page of one list, so that a page holds about `maxBytes` of JSON whatever the
 * objects weigh: the first page asks for as many as fit at the largest object a cluster stores (their
 * size is not known yet), each next one for as many as fit at the largest size per object of the pages
 * so far; never more than `maxObjects`, never fewer than one. A list's `continue` token is valid with
 * any `limit`, so pages may differ. An estimate: a page whose objects are far larger than the earlier
 * pages' can pass the bound.
 */
export class ListPageLimit {
  private bytesPerObject = 0;
  private fixed: number | undefined;

  constructor(
    private readonly maxObjects: number,
    private readonly maxBytes: number,
  ) {}

  /** The `limit` to ask the next page for. */
  next(): number {
    if (this.fixed !== undefined) return this.fixed;
    const per = this.bytesPerObject > 0 ? this.bytesPerObject : LARGEST_OBJECT_BYTES;
    return Math.max(1, Math.min(this.maxObjects, Math.floor(this.maxBytes / per)));
  }

  /** Every next page asks for `limit` (a server that takes a `continue` token only with the limit it was given for). */
  fix(limit: number): void {
    this.fixed = limit;
  }

  /** A page arrived: `objects` items in `bytes` of JSON. */
  saw(objects: number, bytes: number): void {
    if (objects > 0) this.bytesPerObject = Math.max(this.bytesPerObject, bytes / objects);
  }
}
