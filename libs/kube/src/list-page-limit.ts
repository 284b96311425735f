/**
 * The largest object etcd stores by default (its request limit, `--max-request-bytes`): a page's first
 * guess per object. A guess, not a ceiling: that is the stored form, and an object's JSON can be larger.
 */
export const LARGEST_OBJECT_BYTES = 1.5 * 1024 * 1024;

/**
 * The `limit` of each page of one list, so that a page holds about `maxBytes` of JSON whatever the
 * objects weigh: the first page asks for as many as fit at the largest object a cluster stores (their
 * size is not known yet), each next one for as many as fit at the largest size per object of the pages
 * so far; never more than `maxObjects`, never fewer than one. An estimate: a page whose objects are
 * far larger than the earlier pages' can pass the bound. So a list's pages ask for different limits
 * on its `continue` tokens; for a server that takes a token only with the limit it was given for,
 * {@link keepPrevious} goes back to that one for the rest of the list.
 */
export class ListPageLimit {
  private bytesPerObject = 0;
  /** The limits of the last two pages asked for (`previous` undefined on the first). */
  private current: number | undefined;
  private previous: number | undefined;
  private fixed: number | undefined;

  constructor(
    private readonly maxObjects: number,
    private readonly maxBytes: number,
  ) {}

  /** The `limit` to ask the next page for (once per page: it is remembered as asked). */
  next(): number {
    const per = this.bytesPerObject > 0 ? this.bytesPerObject : LARGEST_OBJECT_BYTES;
    const n = this.fixed ?? Math.max(1, Math.min(this.maxObjects, Math.floor(this.maxBytes / per)));
    this.previous = this.current;
    this.current = n;
    return n;
  }

  /**
   * The page just asked for was refused: the limit of the page before, which every next page asks
   * for too; undefined where there is none or it was the same (nothing else to try).
   */
  keepPrevious(): number | undefined {
    if (this.previous === undefined || this.previous === this.current) return undefined;
    this.fixed = this.current = this.previous;
    return this.fixed;
  }

  /** A page arrived: `objects` items in `bytes` of JSON. */
  saw(objects: number, bytes: number): void {
    if (objects > 0) this.bytesPerObject = Math.max(this.bytesPerObject, bytes / objects);
  }
}
