import type { ResourceRecord } from '../store/records';

/**
 * The newest known head of recently committed resources. A revision's content never changes, so
 * an entry is valid exactly when the store's current revision equals the entry's: a commit checks
 * that (a cheap read) instead of reading and parsing the whole content again. Bounded, oldest out.
 */
export class HeadCache {
  private readonly entries = new Map<string, ResourceRecord>();

  constructor(private readonly capacity = 256) {}

  get(id: string, revision: number): ResourceRecord | undefined {
    const entry = this.entries.get(id);
    return entry && entry.revision === revision ? entry : undefined;
  }

  /** The newest head this process knows for `id`, whatever the store holds now. */
  latest(id: string): ResourceRecord | undefined {
    return this.entries.get(id);
  }

  set(record: ResourceRecord): void {
    this.entries.delete(record.id);
    this.entries.set(record.id, record);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
