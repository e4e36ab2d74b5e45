// A promise and its resolve, made apart (Promise.withResolvers needs Node 22).

export interface Signal<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

export function signal<T>(): Signal<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => { resolve = done; });
  return { promise, resolve };
}
