// A promise with a deadline: no caller of a shard ever waits forever (comedy's sendAndReceive
// hangs after its worker exits).

export class DeadlineError extends Error {
  constructor(what: string, timeoutMs: number) {
    super(`${what} got no answer within ${timeoutMs} ms`);
    this.name = 'DeadlineError';
  }
}

export function withDeadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(what, timeoutMs)), timeoutMs);
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}
