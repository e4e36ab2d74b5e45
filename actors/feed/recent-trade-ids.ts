// The trade ids one pair has seen recently, for de-duplication: the last `capacity` ids (FIFO;
// when full, the oldest is forgotten). The venue's tids are integers below 2^53 but not
// monotonic, so they are kept in an open-addressing table of doubles: no string, no Set entry
// per trade. Ids that are not canonical integers (other venues, files) go to a string set
// with the same bound of its own.

/** Marks a free slot: ids kept here are integers >= 0. */
const FREE = -1;

export class RecentTradeIds {
  /** Ids in arrival order: the one at `next` is the oldest once the ring is full. */
  private readonly order: Float64Array;
  /** Linear probing at load <= 1/2; deletion shifts back, so no tombstones build up. */
  private readonly keys: Float64Array;
  private readonly mask: number;
  private readonly shift: number;
  private next = 0;
  private count = 0;
  private readonly texts: RecentTexts;

  constructor(private readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 1)) {
      throw new RangeError(`capacity must be an integer >= 1 (was ${capacity})`);
    }
    const bits = Math.max(4, Math.ceil(Math.log2(capacity * 2)));
    this.keys = new Float64Array(1 << bits).fill(FREE);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    this.order = new Float64Array(capacity);
    this.texts = new RecentTexts(capacity);
  }

  /** True when the id (`id`, or `text` when not null) is among the remembered ones. */
  has(id: number, text: string | null): boolean {
    return text === null ? this.hasNumber(id) : this.texts.has(text);
  }

  /** Remembers an id that has() just refused, forgetting the oldest when full. */
  add(id: number, text: string | null): void {
    if (text !== null) return this.texts.add(text);
    if (this.count === this.capacity) this.remove(this.order[this.next]);
    else this.count++;
    this.order[this.next] = id;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    this.insert(id);
  }

  private slot(id: number): number {
    const lo = id >>> 0;
    const hi = (id / 4294967296) >>> 0;
    return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> this.shift;
  }

  private hasNumber(id: number): boolean {
    const keys = this.keys;
    for (let i = this.slot(id); ; i = (i + 1) & this.mask) {
      const k = keys[i];
      if (k === id) return true;
      if (k === FREE) return false;
    }
  }

  private insert(id: number): void {
    let i = this.slot(id);
    while (this.keys[i] !== FREE) i = (i + 1) & this.mask;
    this.keys[i] = id;
  }

  /** Frees id's slot and shifts back the entries of its probe run that hashed before the gap. */
  private remove(id: number): void {
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
