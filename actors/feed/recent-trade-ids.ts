// The trade ids one pair has seen recently, for de-duplication: the last `capacity` ids (FIFO;
// when full, the oldest is forgotten). The venue's tids are integers below 2^53 but not
// monotonic, so they are kept in an open-addressing table of doubles: no string, no Set entry
// per trade. While the ids held arrive in increasing order (many venues', the simulator's),
// the ring alone answers, sorted: no table work per trade. Ids that are not canonical
// integers (other venues, files) go to a string set with the same bound of its own.

/** Marks a free slot: ids kept here are integers >= 0. */
const FREE = -1;

export class RecentTradeIds {
  /** Ids in arrival order: the one at `next` is the oldest once the ring is full. */
  private readonly order: Float64Array;
  /** Ids added so far, and the arrival number of the last one below the id before it. */
  private added = 0;
  private lastDescent = -1;
  /**
   * The ring's ids while it is not sorted (built when an id below the one before arrives): open
   * addressing, linear probing at a load of about 1/2 with room for capacity + 1 ids;
   * deletion shifts back, so no tombstones build up.
   */
  private readonly keys: Float64Array;
  private readonly mask: number;
  private readonly shift: number;
  private tabled = false;
  /** The free slot where the last probe for `freeId` stopped (FREE: none remembered). */
  private freeId = FREE;
  private freeSlot = 0;
  private next = 0;
  private count = 0;
  /** The largest id ever added. */
  private maxId = FREE;
  private readonly texts: RecentTexts;

  constructor(private readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 1)) {
      throw new RangeError(`capacity must be an integer >= 1 (was ${capacity})`);
    }
    this.order = new Float64Array(capacity);
    const bits = Math.max(4, Math.ceil(Math.log2(capacity * 2)));
    this.keys = new Float64Array(1 << bits).fill(FREE);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    this.texts = new RecentTexts(capacity);
  }

  /** True when the id (`id`, or `text` when not null) is among the remembered ones. */
  has(id: number, text: string | null): boolean {
    if (text !== null) return this.texts.has(text);
    // Above every id ever added: not here, nothing to search.
    if (id > this.maxId) return false;
    return this.tabled ? this.tableHas(id) : this.searchRing(id);
  }

  /** Remembers an id that has() just refused, forgetting the oldest when full. */
  add(id: number, text: string | null): void {
    if (text !== null) return this.texts.add(text);
    const at = this.next;
    const newest = this.order[(at === 0 ? this.capacity : at) - 1];
    // With room for one id, the one before it leaves now: nothing to compare with.
    if (this.count > 0 && this.capacity > 1 && id < newest) {
      if (!this.tabled) this.tableFill(this.count < this.capacity ? 0 : at, this.count);
      this.tabled = true;
      this.lastDescent = this.added;
    }
    if (this.tabled) this.tableInsert(id);
    if (id > this.maxId) this.maxId = id;
    if (this.count < this.capacity) this.count++;
    else if (this.tabled) this.tableRemove(this.order[at]);
    this.order[at] = id;
    this.next = at + 1 === this.capacity ? 0 : at + 1;
    this.added++;
    // Sorted again once the last descent's pair has left: the ring alone answers.
    if (this.tabled && this.lastDescent <= this.added - this.count) {
      this.keys.fill(FREE);
      this.freeId = FREE;
      this.tabled = false;
    }
  }

  /** Binary search of the ring (sorted while not `tabled`). */
  private searchRing(id: number): boolean {
    const start = this.count < this.capacity ? 0 : this.next;
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = start + mid;
      const v = this.order[at >= this.capacity ? at - this.capacity : at];
      if (v === id) return true;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
  /** Also remembers where the probe ended, for a tableInsert() of the same id right after. */
  private tableHas(id: number): boolean {
    const keys = this.keys;
    for (let i = this.slot(id); ; i = (i + 1) & this.mask) {
      const k = keys[i];
      if (k === id) return true;
      if (k === FREE) {
        this.freeId = id;
        this.freeSlot = i;
        return false;
      }
    }
  }

  /** Adds an id that is not in the table. */
  private tableInsert(id: number): void {
    let i = this.freeSlot;
    if (this.freeId !== id) {
      i = this.slot(id);
      while (this.keys[i] !== FREE) i = (i + 1) & this.mask;
    }
    this.keys[i] = id;
    // Any change to the table makes the remembered slot stale.
    this.freeId = FREE;
  }

  /** The `count` ids of the ring from `start` on into the empty table. */
  private tableFill(start: number, count: number): void {
    for (let k = 0, at = start; k < count; k++, at = at + 1 === this.capacity ? 0 : at + 1) {
      this.tableInsert(this.order[at]);
    }
  }

  private slot(id: number): number {
    const lo = id >>> 0;
    const hi = (id / 4294967296) >>> 0;
    return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> this.shift;
  }

  /** Frees id's slot and shifts back the entries of its probe run that hashed before the gap. */
  private tableRemove(id: number): void {
    const keys = this.keys;
    let gap = this.slot(id);
    while (keys[gap] !== id) gap = (gap + 1) & this.mask;
    keys[gap] = FREE;
    for (let j = (gap + 1) & this.mask; keys[j] !== FREE; j = (j + 1) & this.mask) {
      const home = this.slot(keys[j]);
      // The entry at j stays when its home lies cyclically in (gap, j].
      if (gap <= j ? gap < home && home <= j : gap < home || home <= j) continue;
      keys[gap] = keys[j];
      keys[j] = FREE;
      gap = j;
    }
    this.freeId = FREE;
  }
}

/** Text ids: a ring plus a set; when full the oldest id is forgotten. */
class RecentTexts {
  private readonly ring: string[];
  private readonly set = new Set<string>();
  private next = 0;
  constructor(private readonly capacity: number) {
    this.ring = new Array<string>(capacity);
  }

  has(id: string): boolean {
    return this.set.has(id);
  }

  add(id: string): void {
    const evicted = this.ring[this.next];
    if (evicted !== undefined) this.set.delete(evicted);
    this.ring[this.next] = id;
    this.next = (this.next + 1) % this.capacity;
    this.set.add(id);
  }
}

/** The numeric form of a trade id: the integer when `text` is canonical and below 2^53. */
export function numericTradeId(text: string): number {
  const n = text.length;
  if (n === 0 || n > 16 || (text.charCodeAt(0) === 48 && n > 1)) return NaN;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return NaN;
  }
  const id = Number(text);
  return id < 9007199254740992 ? id : NaN;
}
