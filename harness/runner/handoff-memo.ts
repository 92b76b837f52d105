import type { Handoff } from '../core/index.ts';

/**
 * Handoffs of deterministic strategies (Strategy.deterministic) by case × arm, so the reps of an arm
 * share one handoff instead of rebuilding and re-rendering it per cell. Plan order puts an arm's reps
 * next to each other, so a small LRU catches them all; the promise is stored, so cells in flight
 * together wait for the same preparation. A failed preparation is not kept (the next cell retries).
 */
export class HandoffMemo {
  private readonly entries = new Map<string, Promise<Handoff>>();

  constructor(private readonly limit = 64) {}

  get(key: string, prepare: () => Promise<Handoff>): Promise<Handoff> {
    const found = this.entries.get(key);
    if (found) {
      // Most recently used goes last: eviction takes the first.
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    const made = prepare();
    made.catch(() => {
      if (this.entries.get(key) === made) this.entries.delete(key);
    });
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, made);
    return made;
  }
}
