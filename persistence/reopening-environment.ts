// An lmdb environment that is closed and opened again after every so many writes. Its own
// writes read B-tree pages through the map (descents, freed pages reused), which then count in
// the process's RSS until the map goes, and only closing the environment unmaps them
// (docs/store.md, "Two environments"). The root and the tables it hands out are stand-ins that
// reach the environment open at the call, so no handle outlives a reopen.
import type { Database, RootDatabase } from 'lmdb';

export interface ReopeningOptions {
  /** Writes (puts, removes, transactions) committed after which the environment is reopened. */
  readonly writesPerReopen: number;
}

type State = 'open' | 'draining' | 'reopening' | 'closed';
/** Tables opened through the root, each once per store that uses it. */
const tableStandInsMax = 1_024;
/** The root (null) or the number of a table stand-in. */
type TableId = number | null;

/**
 * The calls that write, and the backup (a copy must not meet the environment closing): issued
 * while a reopen waits, they wait for it (in order).
 */
const asyncWrites = new Set(['put', 'remove', 'del', 'transaction', 'transactionAsync',
  'childTransaction', 'ifVersion', 'ifNoExists', 'clearAsync', 'drop', 'batch', 'backup']);
/** Synchronous writes run at once (the environment is still open until the reopen itself). */
const syncWrites = new Set(['putSync', 'removeSync', 'transactionSync', 'clearSync',
  'dropSync']);

type Callable = Record<string, unknown> & { [method: string]: unknown };

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

export class ReopeningEnvironment {
  /** Stands for the current environment's root: `openTable(env.root, name)` works as usual. */
  readonly root: RootDatabase;
  private current: RootDatabase;
  /** Each table stand-in's options (by its number) and its handle in the open environment. */
  private readonly tableOptions: { name: string }[] = [];
  private readonly tables = new Map<number, Database>();
  private state: State = 'open';
  private inFlight = 0;
  private writesSinceOpen = 0;
  /** Depth of write transaction callbacks running: their writes belong to that transaction. */
  private insideTransaction = 0;
  private held: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  private reopenCount = 0;
  private reopenRunning = false;
  private closing: Promise<void> | null = null;
  /** Every write counted since construction: a reopen waits for a turn with none. */
  private writeCount = 0;

  constructor(
    private readonly openRoot: () => RootDatabase,
    private readonly options: ReopeningOptions,
    private readonly onError: (error: Error) => void = () => {},
  ) {
    if (!Number.isInteger(options.writesPerReopen) || options.writesPerReopen < 1) {
      throw new TypeError('writesPerReopen must be a positive integer ' +
        `(was ${options.writesPerReopen})`);
    }
    this.current = openRoot();
    this.root = this.standIn<RootDatabase>(null);
  }

  /** How many times the environment was closed and opened again. */
  get reopens(): number {
    return this.reopenCount;
  }

  /** Resolves once no write is in flight, held or waiting for a reopen. */
  async settled(): Promise<void> {
    while (this.inFlight > 0 || this.held.length > 0 || this.state === 'draining' ||
      this.state === 'reopening') {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
  }

  /** Waits for the writes, then closes the environment for good. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.settled();
      const failed = (this.state as State) === 'closed';
      this.state = 'closed';
      this.tables.clear();
      if (!failed) await this.current.close();
    })();
    return this.closing;
  }

  private table(id: number): Database {
    let table = this.tables.get(id);
    if (table === undefined) {
      table = this.current.openDB(this.tableOptions[id]!);
      this.tables.set(id, table);
    }
    return table;
  }

  private target(id: TableId): Callable {
    if (this.state === 'closed' || this.state === 'reopening') {
      throw new Error(`the store's environment is ${this.state === 'closed' ? 'closed' :
        'being reopened'} (a call outside its writes' turns)`);
    }
    return (id === null ? this.current : this.table(id)) as unknown as Callable;
  }

  /**
   * A proxy for the root (id null) or a table opened through it, resolved again at every
   * access. Tables are told apart by the openDB call, not the name: one name may be opened with
   * two encodings (the migration copies bytes).
   */
  private standIn<T extends object>(id: TableId): T {
    return new Proxy({}, {
      get: (_, property) => {
        if (id === null && property === 'openDB') {
          return (options: { name: string }) => {
            if (this.tableOptions.length >= tableStandInsMax) {
              throw new Error(`more than ${tableStandInsMax} tables opened on the environment ` +
                '(expected each store to open its tables once)');
            }
            this.tableOptions.push(options);
            return this.standIn<Database>(this.tableOptions.length - 1);
          };
        }
        const target = this.target(id);
        const value = target[property as string];
        if (typeof value !== 'function') return value;
        const method = property as string;
        return (...args: unknown[]) => this.call(id, method, args);
      },
    }) as T;
  }

  private call(id: TableId, method: string, args: unknown[]): unknown {
    if (this.insideTransaction > 0 || (!asyncWrites.has(method) && !syncWrites.has(method))) {
      return this.invoke(id, method, args);
    }
    if (asyncWrites.has(method) && this.state !== 'open') {
      return new Promise((resolve, reject) => {
        this.held.push(() => {
          try {
            Promise.resolve(this.issue(id, method, args)).then(resolve, reject);
          } catch (error) {
            reject(error);
          }
        });
      });
    }
    return this.issue(id, method, args);
  }

  private invoke(id: TableId, method: string, args: unknown[]): unknown {
    const target = this.target(id);
    return (target[method] as (...a: unknown[]) => unknown).apply(target, args);
  }

  /** A write: a transaction's callback runs marked as inside it; the commit is counted. */
  private issue(id: TableId, method: string, args: unknown[]): unknown {
    const wrapped = args.map((arg) => typeof arg !== 'function' ? arg : (...inner: unknown[]) => {
      this.insideTransaction += 1;
      try {
        return (arg as (...a: unknown[]) => unknown)(...inner);
      } finally {
        this.insideTransaction -= 1;
      }
    });
    const result = this.invoke(id, method, wrapped);
    if (!isThenable(result)) {
      this.counted();
      return result;
    }
    this.inFlight += 1;
    const settle = () => {
      this.inFlight -= 1;
      this.counted();
    };
    result.then(settle, settle);
    return result;
  }

  private counted(): void {
    this.writesSinceOpen += 1;
    this.writeCount += 1;
    if (this.state === 'open' && this.writesSinceOpen >= this.options.writesPerReopen) {
      this.state = 'draining';
    }
    if (this.inFlight > 0) return;
    if (this.state === 'draining') void this.reopen();
    else if (this.state === 'open') this.wakeIdle();
  }

  /**
   * Closes and opens the environment once every write issued is committed and on disk; reads
   * go on meanwhile, new writes wait. The close runs in a turn of its own after `flushed`, so it
   * completes within that turn's microtasks: no read of another turn meets it closed.
   */
  private async reopen(): Promise<void> {
    if (this.reopenRunning) return;
    this.reopenRunning = true;
    try {
      for (;;) {
        const writesBefore = this.writeCount;
        await this.current.flushed;
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.inFlight === 0 && this.writeCount === writesBefore) break;
      }
      this.state = 'reopening';
      this.tables.clear();
      await this.current.close();
      this.current = this.openRoot();
      this.writesSinceOpen = 0;
      this.reopenCount += 1;
      this.state = 'open';
    } catch (error) {
      this.state = 'closed';
      this.onError(error as Error);
    }
    this.reopenRunning = false;
    const held = this.held;
    this.held = [];
    for (const run of held) run();
    if (this.inFlight === 0) this.wakeIdle();
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
