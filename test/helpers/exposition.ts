// Reads one sample's value out of a Prometheus text exposition (a scrape of /metrics).

/**
 * The value of `name` whose labels include every one of `labels` (the first such line), or
 * undefined when no line matches.
 */
export function sampleValue(text: string, name: string,
  labels: Readonly<Record<string, string>> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const have = match[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => have.includes(`${k}="${v}"`))) {
      return Number(match[3]);
    }
  }
  return undefined;
}
