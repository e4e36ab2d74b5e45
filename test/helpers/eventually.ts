// Poll until a condition holds instead of sleeping: tests wait for behaviour, not for time.

export async function eventually<T>(
  probe: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
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
      throw new Error(`${options.message ?? 'condition not met'} within ${timeoutMs} ms${why}`);
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

