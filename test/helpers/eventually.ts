// Poll until a condition holds instead of sleeping: tests wait for behaviour, not for time.

export async function eventually<T>(
  probe: () => T | Promise<T>,
  options: {
    timeoutMs?: number; intervalMs?: number;
    /** What was awaited; a function is asked at the timeout (it can name what is missing). */
    message?: string | (() => string);
  } = {},
): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? `: ${lastError.message}` : '';
      const what = typeof options.message === 'function' ? options.message() : options.message;
      throw new Error(`${what ?? 'condition not met'} within ${timeoutMs} ms${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A fresh temporary directory under the OS temp folder. */
export async function tempDir(prefix = 'orderflow-test-'): Promise<string> {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  return mkdtemp(join(tmpdir(), prefix));
}

