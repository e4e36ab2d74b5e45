// How many deliveries wait in the outbox, kept in memory so a publish can check the outbox bound
// without counting the due index. Each local write adjusts it once its commit resolves. A
// recount from the store (wanted when another process, the command line, changed the outbox)
// waits until no local write is between its commit and its adjustment: a recount in that
// window would see the commit and the adjustment would then count it a second time.
export class PendingCount {
  private count = 0;
  private writing = 0;
  private stale = false;

  /** Starts at 0: the owner recounts once the store is open (the supervisor's first refresh). */
  constructor(private readonly countStored: () => number) {}

  get value(): number {
    return this.count;
  }

  /** The store may hold changes made elsewhere: recount now, or once local writes settle. */
  recount(): void {
    if (this.writing > 0) {
      this.stale = true;
      return;
    }
    this.stale = false;
    this.count = this.countStored();
  }

  /**
   * Runs a write that changes the count: `reserve` counts at once (a publish's deliveries, so
   * a concurrent publish sees them against the bound), then `settle(result)` says what the
   * write really changed, the reservation included.
   */
  async write<T>(reserve: number, run: () => Promise<T>, settle: (result: T) => number):
    Promise<T> {
    this.writing += 1;
    this.count += reserve;
    let delta = 0;
    try {
      const result = await run();
      delta = settle(result);
      return result;
    } finally {
      this.count += delta - reserve;
      this.writing -= 1;
      if (this.writing === 0 && this.stale) this.recount();
    }
  }
}
