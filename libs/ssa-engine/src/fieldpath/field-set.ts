import { MAX_DEPTH, SsaEngineError } from '../errors.js';
import { comparePE, peEquals, peToHuman, type PathElement } from './path-element.js';

/** A field path: a sequence of path elements below the object root. */
export type Path = readonly PathElement[];

export function pathToHuman(path: Path): string {
  let s = '';
  for (const pe of path) s += peToHuman(pe);
  return s;
}

function sortedIndexOf(arr: readonly PathElement[], pe: PathElement): number {
  let lo = 0;
  let hi = arr.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = comparePE(arr[mid]!, pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * An immutable set of field paths, shaped as a trie (01 §3): each node has sorted `members`
 * (paths that are in the set) and sorted `children` (elements below which something is in the
 * set). Operations return new sets and never a node with an empty subtree.
 */
export class FieldSet {
  static readonly EMPTY: FieldSet = new FieldSet([], [], []);

  private sizeCache = -1;

  /** @internal Use the builders (`fromPaths`, `FieldSetBuilder`, FieldsV1 parsing). */
  constructor(
    readonly members: readonly PathElement[],
    readonly children: readonly PathElement[],
    readonly childSets: readonly FieldSet[],
  ) {}

  static fromPaths(paths: Iterable<Path>): FieldSet {
    const b = new FieldSetBuilder();
    for (const p of paths) b.insert(p);
    return b.build();
  }

  get isEmpty(): boolean {
    // Invariant: no empty child subtrees, so a node with any child is non-empty.
    return this.members.length === 0 && this.children.length === 0;
  }

  /** Number of member entries in the whole trie. */
  get size(): number {
    if (this.sizeCache < 0) {
      let n = this.members.length;
      for (const c of this.childSets) n += c.size;
      this.sizeCache = n;
    }
    return this.sizeCache;
  }

  /** The child set under `pe` (the empty set if none). */
  withPrefix(pe: PathElement): FieldSet {
    const i = sortedIndexOf(this.children, pe);
    return i < 0 ? FieldSet.EMPTY : this.childSets[i]!;
  }

  hasMember(pe: PathElement): boolean {
    return sortedIndexOf(this.members, pe) >= 0;
  }

  /** True iff `path` is a member. The empty path is never in a set. */
  has(path: Path): boolean {
    if (path.length === 0) return false;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) {
      const j = sortedIndexOf(node.children, path[i]!);
      if (j < 0) return false;
      node = node.childSets[j]!;
    }
    return node.hasMember(path[path.length - 1]!);
  }

  /** True iff some member lies strictly below `path` (`path` itself excluded). */
  hasDescendantsOf(path: Path): boolean {
    let node: FieldSet = this;
    for (const pe of path) {
      const j = sortedIndexOf(node.children, pe);
      if (j < 0) return false;
      node = node.childSets[j]!;
    }
    return path.length > 0 && !node.isEmpty;
  }

  union(other: FieldSet): FieldSet {
    if (other.isEmpty) return this;
    if (this.isEmpty) return other;
    const members = mergeMembers(this.members, other.members);
    const a = this.children;
    const b = other.children;
    const children: PathElement[] = [];
    const sets: FieldSet[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      const c = i === a.length ? 1 : j === b.length ? -1 : comparePE(a[i]!, b[j]!);
      if (c < 0) {
        children.push(a[i]!);
        sets.push(this.childSets[i++]!);
      } else if (c > 0) {
        children.push(b[j]!);
        sets.push(other.childSets[j++]!);
      } else {
        children.push(a[i]!);
        sets.push(this.childSets[i++]!.union(other.childSets[j++]!));
      }
    }
    return new FieldSet(members, children, sets);
  }

  /** Paths in both sets; the path elements of the result come from `this` (01 §3.1). */
  intersection(other: FieldSet): FieldSet {
    if (this.isEmpty || other.isEmpty) return FieldSet.EMPTY;
    const members: PathElement[] = [];
    const am = this.members;
    const bm = other.members;
    for (let i = 0, j = 0; i < am.length && j < bm.length; ) {
      const c = comparePE(am[i]!, bm[j]!);
      if (c === 0) {
        members.push(am[i]!);
        i++;
        j++;
      } else if (c < 0) i++;
      else j++;
    }
    const children: PathElement[] = [];
    const sets: FieldSet[] = [];
    const a = this.children;
    const b = other.children;
    for (let i = 0, j = 0; i < a.length && j < b.length; ) {
      const c = comparePE(a[i]!, b[j]!);
      if (c === 0) {
        const s = this.childSets[i]!.intersection(other.childSets[j]!);
        if (!s.isEmpty) {
          children.push(a[i]!);
          sets.push(s);
        }
        i++;
        j++;
      } else if (c < 0) i++;
      else j++;
    }
    if (members.length === 0 && children.length === 0) return FieldSet.EMPTY;
    return new FieldSet(members, children, sets);
  }

  /**
   * Members of `this` not in `other`. Members of one side do not remove child subtrees of the other
   * (`{a.b.c} − {a} = {a.b.c}`).
   */
  difference(other: FieldSet): FieldSet {
    return this.diff(other, false);
  }

  /** Like `difference`, but a member of `other` also removes everything below it (01 §3.1). */
  recursiveDifference(other: FieldSet): FieldSet {
    return this.diff(other, true);
  }

  private diff(other: FieldSet, recursive: boolean): FieldSet {
    if (this.isEmpty || other.isEmpty) return this;
    let changed = false;
    const members: PathElement[] = [];
    const am = this.members;
    const bm = other.members;
    for (let i = 0, j = 0; i < am.length; ) {
      const c = j === bm.length ? -1 : comparePE(am[i]!, bm[j]!);
      if (c === 0) {
        changed = true;
        i++;
        j++;
      } else if (c < 0) members.push(am[i++]!);
      else j++;
    }
    const children: PathElement[] = [];
    const sets: FieldSet[] = [];
    const a = this.children;
    const b = other.children;
    for (let i = 0, j = 0; i < a.length; i++) {
      const pe = a[i]!;
      const cs = this.childSets[i]!;
      if (recursive && other.hasMember(pe)) {
        changed = true;
        continue;
      }
      while (j < b.length && comparePE(b[j]!, pe) < 0) j++;
      if (j < b.length && comparePE(b[j]!, pe) === 0) {
        const s = cs.diff(other.childSets[j]!, recursive);
        if (s !== cs) changed = true;
        if (!s.isEmpty) {
          children.push(pe);
          sets.push(s);
        }
      } else {
        children.push(pe);
        sets.push(cs);
      }
    }
    if (!changed) return this;
    if (members.length === 0 && children.length === 0) return FieldSet.EMPTY;
    return new FieldSet(members, children, sets);
  }

  /** Members that are not also child keys at the same node, recursively (01 §3.1). */
  leaves(): FieldSet {
    const members = this.members.filter((m) => sortedIndexOf(this.children, m) < 0);
    const children: PathElement[] = [];
    const sets: FieldSet[] = [];
    this.children.forEach((pe, i) => {
      const s = this.childSets[i]!.leaves();
      if (!s.isEmpty) {
        children.push(pe);
        sets.push(s);
      }
    });
    if (members.length === 0 && children.length === 0) return FieldSet.EMPTY;
    return new FieldSet(members, children, sets);
  }

  equals(other: FieldSet): boolean {
    if (this === other) return true;
    if (this.members.length !== other.members.length || this.children.length !== other.children.length) return false;
    for (let i = 0; i < this.members.length; i++) if (!peEquals(this.members[i]!, other.members[i]!)) return false;
    for (let i = 0; i < this.children.length; i++) {
      if (!peEquals(this.children[i]!, other.children[i]!)) return false;
      if (!this.childSets[i]!.equals(other.childSets[i]!)) return false;
    }
    return true;
  }

  /**
   * Every member path, pre-order: at each node first all members in order, then each child
   * subtree in order (01 §3.1). This is the order conflict messages list paths in.
   */
  *paths(prefix: Path = []): IterableIterator<Path> {
    for (const m of this.members) yield [...prefix, m];
    for (let i = 0; i < this.children.length; i++) {
      yield* this.childSets[i]!.paths([...prefix, this.children[i]!]);
    }
  }

  [Symbol.iterator](): IterableIterator<Path> {
    return this.paths();
  }

  /** Human-form paths, one per member, in iteration order. */
  toHumanPaths(): string[] {
    return [...this.paths()].map(pathToHuman);
  }
}

function mergeMembers(a: readonly PathElement[], b: readonly PathElement[]): readonly PathElement[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: PathElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const c = i === a.length ? 1 : j === b.length ? -1 : comparePE(a[i]!, b[j]!);
    if (c < 0) out.push(a[i++]!);
    else if (c > 0) out.push(b[j++]!);
    else {
      out.push(a[i++]!);
      j++;
    }
  }
  return out;
}

/**
 * The longest path the engine's walks produce is MAX_DEPTH + 1 elements; a longer one (hostile
 * input through the public builder) would overflow the stack when the trie is frozen.
 */
function checkLength(n: number): void {
  if (n > MAX_DEPTH + 1) throw new SsaEngineError('too-deep', `field path longer than ${MAX_DEPTH + 1} elements`);
}

interface BuilderNode {
  members: Map<string, PathElement>;
  children: Map<string, { pe: PathElement; node: BuilderNode }>;
}

function newNode(): BuilderNode {
  return { members: new Map(), children: new Map() };
}

/** A mutable accumulator of paths, frozen into a `FieldSet` by `build()`. */
export class FieldSetBuilder {
  private readonly root: BuilderNode = newNode();

  /** Adds `path` as a member (parents are not made members). The empty path is ignored. */
  insert(path: Path): this {
    if (path.length === 0) return this;
    checkLength(path.length);
    let node = this.root;
    for (let i = 0; i < path.length - 1; i++) node = this.child(node, path[i]!);
    const last = path[path.length - 1]!;
    if (!node.members.has(last.str)) node.members.set(last.str, last);
    return this;
  }

  /** Adds `pe` as a member below `prefix` — `insert([...prefix, pe])` without the copy. */
  insertUnder(prefix: Path, pe: PathElement): this {
    checkLength(prefix.length + 1);
    let node = this.root;
    for (const p of prefix) node = this.child(node, p);
    if (!node.members.has(pe.str)) node.members.set(pe.str, pe);
    return this;
  }

  private child(node: BuilderNode, pe: PathElement): BuilderNode {
    let c = node.children.get(pe.str);
    if (!c) {
      c = { pe, node: newNode() };
      node.children.set(pe.str, c);
    }
    return c.node;
  }

  build(): FieldSet {
    return freeze(this.root);
  }
}

function freeze(node: BuilderNode): FieldSet {
  const members = [...node.members.values()].sort(comparePE);
  const entries = [...node.children.values()].sort((x, y) => comparePE(x.pe, y.pe));
  const children: PathElement[] = [];
  const sets: FieldSet[] = [];
  for (const e of entries) {
    const s = freeze(e.node);
    if (!s.isEmpty) {
      children.push(e.pe);
      sets.push(s);
    }
  }
  if (members.length === 0 && children.length === 0) return FieldSet.EMPTY;
  return new FieldSet(members, children, sets);
}
