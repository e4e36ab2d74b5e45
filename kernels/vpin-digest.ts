// The t-digest behind the VPIN levels: the `tdigest` package's TDigest (continuous mode),
// step for step, with its centroids in sorted typed arrays instead of a red-black tree of
// objects. Rating a VPIN value cumulates every centroid (an exact cumulation the package's
// later merges read); over the tree's nodes that walk cost ~64 ns a centroid, a third of a
// warm-up's level work. Same operations on the same numbers in the same order: the same
// centroids, counts, ranks and saved images as the package's (a test compares them).
//
//   index:      0      1      ...   size-1          (ascending, unique means)
//   means     [ m0  ][ m1  ]  ...  [ m.. ]
//   counts    [ n0  ][ n1  ]  ...             cumns and meanCumns: the counts cumulated when
//   cumns     [ c0  ][ c1  ]  ...             the digest last cumulated, plus what was added
//   meanCumns [ mc0 ][ mc1 ]  ...             since (NaN for a centroid made since: the
//                                             package's field is undefined until then)

/** First capacity of the arrays; they double up to the recompression bound. */
const capacityInitial = 64;

export class VpinDigest {
  /** The package's field names: state images carry n and last_cumulate as they are. */
  n = 0;
  last_cumulate = 0;
  size = 0;
  readonly discrete = false;
  readonly CX = 1.1;
  private compressing = false;
  private means = new Float64Array(capacityInitial);
  private counts = new Float64Array(capacityInitial);
  private cumns = new Float64Array(capacityInitial);
  private meanCumns = new Float64Array(capacityInitial);

  /** delta: max fraction of mass in one centroid; recompress past K / delta centroids. */
  constructor(readonly delta: number, readonly K: number) {
    if (!(delta > 0 && delta <= 1)) throw new RangeError(`delta must be in (0, 1] (was ${delta})`);
    if (!(K > 0)) throw new RangeError(`K must be > 0 (was ${K})`);
  }

  reset(): void {
    this.size = 0;
    this.n = 0;
    this.last_cumulate = 0;
  }

  push(x: number): void {
    this.digest(x, 1);
  }

  /** The package's _digest: merge into the nearest centroid when it has room, else a new one. */
  private digest(x: number, n: number): void {
    const size = this.size;
    const nearest = this.nearest(x);
    if (nearest >= 0 && this.means[nearest] === x) {
      this.addWeight(nearest, x, n);
    } else if (nearest === 0 || size === 0) {
      this.insert(x, n, 0, NaN);
    } else if (nearest === size - 1) {
      this.insert(x, n, this.n, NaN);
    } else {
      const p = this.meanCumns[nearest] / this.n;
      const maxN = Math.floor(4 * this.n * this.delta * p * (1 - p));
      if (maxN - this.counts[nearest] >= n) this.addWeight(nearest, x, n);
      else this.insert(x, n, this.cumns[nearest], NaN);
    }
    this.cumulate(false);
    if (this.size > this.K / this.delta) this.compress();
  }

  /** Index of the first mean >= x (size when none). */
  private lowerBound(x: number): number {
    let lo = 0;
    let hi = this.size;
    const means = this.means;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (means[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The package's find_nearest: the centroid closest to x, the upper one on a tie; -1: none. */
  private nearest(x: number): number {
    if (this.size === 0) return -1;
    const at = this.lowerBound(x);
    if (at === this.size) return at - 1;
    if (this.means[at] === x || at === 0) return at;
    const means = this.means;
    return Math.abs(means[at - 1] - x) < Math.abs(means[at] - x) ? at - 1 : at;
  }

  private addWeight(at: number, x: number, n: number): void {
    const mean = this.means[at];
    if (x !== mean) this.means[at] = mean + n * (x - mean) / (this.counts[at] + n);
    this.cumns[at] += n;
    this.meanCumns[at] += n / 2;
    this.counts[at] += n;
    this.n += n;
  }

  /** Inserts a centroid at its place by mean (a mean already held is dropped, as the tree's). */
  private insert(mean: number, n: number, cumn: number, meanCumn: number): void {
    const at = this.lowerBound(mean);
    this.n += n;
    if (at < this.size && this.means[at] === mean) return;
    if (this.size === this.means.length) this.grow();
    this.means.copyWithin(at + 1, at, this.size);
    this.counts.copyWithin(at + 1, at, this.size);
    this.cumns.copyWithin(at + 1, at, this.size);
    this.meanCumns.copyWithin(at + 1, at, this.size);
    this.means[at] = mean;
    this.counts[at] = n;
    this.cumns[at] = cumn;
    this.meanCumns[at] = meanCumn;
    this.size++;
  }

  private grow(): void {
    const capacity = this.means.length * 2;
    const grown = (a: Float64Array) => {
      const b = new Float64Array(capacity);
      b.set(a);
      return b;
    };
    this.means = grown(this.means);
    this.counts = grown(this.counts);
    this.cumns = grown(this.cumns);
    this.meanCumns = grown(this.meanCumns);
  }

  /** Exact cumulation, or (not exact) only once n grew by CX since the last one. */
  private cumulate(exact: boolean): void {
    if (this.n === this.last_cumulate || (!exact && this.CX > this.n / this.last_cumulate)) {
      return;
    }
    const counts = this.counts;
    const cumns = this.cumns;
    const meanCumns = this.meanCumns;
    let cumn = 0;
    for (let k = 0; k < this.size; k++) {
      const n = counts[k];
      meanCumns[k] = cumn + n / 2;
      cumn = cumns[k] = cumn + n;
    }
    this.n = this.last_cumulate = cumn;
  }

  /** Percentile rank (0..1) of x, interpolated between the bracketing centroids. */
  rank(x: number): number {
    const size = this.size;
    if (size === 0) return NaN;
    const means = this.means;
    if (x < means[0]) return 0;
    if (x > means[size - 1]) return 1;
    this.cumulate(true);
    // The last mean <= x (one exists: x >= the smallest), and the next one above it.
    let lower = this.lowerBound(x);
    if (lower === size || means[lower] > x) lower--;
    let cumn = this.meanCumns[lower];
    if (means[lower] !== x) {
      const upper = lower + 1;
      cumn += (x - means[lower]) * (this.meanCumns[upper] - this.meanCumns[lower]) /
        (means[upper] - means[lower]);
    }
    return cumn / this.n;
  }

  /**
   * The package's compress: every centroid pushed again as a weighted point, in random order
   * (Math.random, as the package does; at 1,000 centroids, months into a pair's life).
   */
  private compress(): void {
    if (this.compressing) return;
    const points = this.toArray();
    this.reset();
    this.compressing = true;
    while (points.length > 0) {
      const point = points.splice(Math.floor(Math.random() * points.length), 1)[0];
      this.digest(point.mean, point.n);
    }
    this.cumulate(true);
    this.compressing = false;
  }

  /** Centroids in order: {mean, n}, or with every field after an exact cumulation. */
  toArray(everything = false): { mean: number; n: number; cumn?: number; mean_cumn?: number }[] {
    if (everything) this.cumulate(true);
    const out = [];
    for (let k = 0; k < this.size; k++) {
      out.push(everything
        ? { mean: this.means[k], n: this.counts[k], cumn: this.cumns[k],
          mean_cumn: this.meanCumns[k] }
        : { mean: this.means[k], n: this.counts[k] });
    }
    return out;
  }

  /** Per centroid in order: mean, n, cumn, mean_cumn (a state image's layout). */
  centroidImage(): Float64Array {
    const flat = new Float64Array(4 * this.size);
    for (let k = 0; k < this.size; k++) {
      flat[4 * k] = this.means[k];
      flat[4 * k + 1] = this.counts[k];
      flat[4 * k + 2] = this.cumns[k];
      flat[4 * k + 3] = this.meanCumns[k];
    }
    return flat;
  }

  /** Restores centroidImage's layout and the two counts (as the package's fields held them). */
  restoreImage(flat: Float64Array, n: number, lastCumulate: number): void {
    this.reset();
    for (let k = 0; k + 3 < flat.length; k += 4) {
      this.insert(flat[k], flat[k + 1], flat[k + 2], flat[k + 3]);
    }
    this.n = n;
    this.last_cumulate = lastCumulate;
  }
}
