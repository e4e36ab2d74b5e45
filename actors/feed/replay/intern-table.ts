// Text -> index, bounded, for the symbol and address tables of the compact and binary replay
// formats. When full, the next new text takes the slot defined longest ago (round robin) and
// the old text is forgotten: the file redefines the slot, so a reader's table stays as small
// as the writer's.
export class InternTable {
  private readonly index = new Map<string, number>();
  private readonly slots: string[] = [];
  private next = 0;
  /** After ref(): true when the text was new, so its definition must be written first. */
  defined = false;

  constructor(private readonly capacity: number, tag: string) {
    if (!(Number.isInteger(capacity) && capacity >= 2)) {
      throw new RangeError(`${tag} table capacity must be an integer >= 2 (was ${capacity})`);
    }
  }

  /**
   * The index of `text`; `defined` says whether it was just assigned. `keep` is a slot the
   * same event already refers to: it is never the one taken (needs capacity >= 2).
   */
  ref(text: string, keep = -1): number {
    const known = this.index.get(text);
    this.defined = known === undefined;
    if (known !== undefined) return known;
    if (this.next === keep) this.next = (this.next + 1) % this.capacity;
    const slot = this.next;
    this.next = (this.next + 1) % this.capacity;
    const evicted = this.slots[slot];
    if (evicted !== undefined) this.index.delete(evicted);
    this.slots[slot] = text;
    this.index.set(text, slot);
    return slot;
  }
}
