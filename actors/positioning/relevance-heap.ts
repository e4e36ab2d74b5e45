// An indexed binary min-heap of wallets by relevance score, so the least relevant wallet is found
// in O(1) and a score change costs O(log n). Each item remembers its own slot.
//
//            [0] least relevant
//           /   \
//        [1]     [2]        children of slot i: 2i + 1, 2i + 2
//       /  \    /  \        parent of slot i: (i - 1) >> 1
//     [3] [4] [5] [6]

export interface HeapItem {
  /** Compared as is; ties are broken by address so the order is deterministic. */
  score: number;
  heapIndex: number;
  readonly address: string;
}

export class RelevanceHeap<T extends HeapItem> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    item.heapIndex = this.items.length;
    this.items.push(item);
    this.up(item.heapIndex);
  }

  remove(item: T): void {
    const i = item.heapIndex;
    if (this.items[i] !== item) throw new Error('heap item is not in this heap');
    const last = this.items.pop()!;
    item.heapIndex = -1;
    if (last === item) return;
    this.items[i] = last;
    last.heapIndex = i;
    this.update(last);
  }

  /** Restores the order after the item's score changed, in either direction. */
  update(item: T): void {
    this.up(item.heapIndex);
    this.down(item.heapIndex);
  }

  /** Multiplies every score by the same positive factor: the order is unchanged. */
  scale(factor: number): void {
    for (const item of this.items) item.score *= factor;
  }

  private less(a: T, b: T): boolean {
    return a.score < b.score || (a.score === b.score && a.address > b.address);
  }

  private swap(i: number, j: number): void {
    const a = this.items[i];
    const b = this.items[j];
    this.items[i] = b;
    this.items[j] = a;
    a.heapIndex = j;
    b.heapIndex = i;
  }

  private up(start: number): void {
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.items[i], this.items[parent])) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(start: number): void {
    let i = start;
    const n = this.items.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) return;
      const right = left + 1;
      const child = right < n && this.less(this.items[right], this.items[left]) ? right : left;
      if (!this.less(this.items[child], this.items[i])) return;
      this.swap(i, child);
      i = child;
    }
  }
}
