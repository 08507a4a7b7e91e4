/**
 * An immutable workspace state: documents by POSIX relative path. Every distinct state has its own
 * snapshotId; deriving a new state never changes an old one, so readers may hold a snapshot freely.
 */
import { createHash, randomUUID } from 'node:crypto';

export interface SnapshotIdentity {
  workspaceId: string;
  workspaceEpoch: number;
  snapshotId: string;
  transactionRevision: number;
}

export interface SnapshotDocument {
  readonly path: string;
  readonly text: string;
  /** sha256 of the UTF-8 text; doubles as the language-service script version. */
  readonly sha256: string;
}

export function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

export function makeDocument(path: string, text: string): SnapshotDocument {
  return Object.freeze({ path, text, sha256: sha256(text) });
}

export class Snapshot {
  readonly snapshotId: string;
  private readonly docs: ReadonlyMap<string, SnapshotDocument>;

  private constructor(docs: ReadonlyMap<string, SnapshotDocument>) {
    this.snapshotId = randomUUID();
    this.docs = docs;
  }

  static fromTexts(texts: Iterable<[string, string]>): Snapshot {
    const docs = new Map<string, SnapshotDocument>();
    for (const [path, text] of texts) docs.set(path, makeDocument(path, text));
    return new Snapshot(docs);
  }

  get size(): number {
    return this.docs.size;
  }

  get(path: string): SnapshotDocument | undefined {
    return this.docs.get(path);
  }

  has(path: string): boolean {
    return this.docs.has(path);
  }

  paths(): string[] {
    return [...this.docs.keys()].sort();
  }

  documents(): IterableIterator<SnapshotDocument> {
    return this.docs.values();
  }

  /** A new snapshot with `writes` set and `deletes` removed; untouched documents are shared. */
  derive(writes: ReadonlyMap<string, string>, deletes: ReadonlySet<string>): Snapshot {
    const docs = new Map(this.docs);
    for (const path of deletes) docs.delete(path);
    for (const [path, text] of writes) docs.set(path, makeDocument(path, text));
    return new Snapshot(docs);
  }

  /** True when both hold the same paths with the same contents. */
  sameContentAs(other: Snapshot): boolean {
    if (other.docs.size !== this.docs.size) return false;
    for (const [path, doc] of this.docs) if (other.docs.get(path)?.sha256 !== doc.sha256) return false;
    return true;
  }
}
