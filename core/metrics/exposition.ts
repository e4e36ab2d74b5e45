// Prometheus text lines of collected samples, the same bytes prom-client's registry writes for
// them, without its per-sample label arrays and its three regular-expression passes per label
// value: a label value is escaped only when it holds a character that needs it.
import type { Labels, Sample } from './sample.js';

const needsEscape = /[\\\n"]/;

/** prom-client's escape of HELP text (backslash and newline). */
export function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function labelValue(value: string | number): string | number {
  if (typeof value !== 'string' || !needsEscape.test(value)) return value;
  return escapeHelp(value).replace(/"/g, '\\"');
}

/** A sample's value as prom-client writes it (`Nan`, `+Inf`, `-Inf`). */
export function sampleText(value: number): string {
  if (Number.isNaN(value)) return 'Nan';
  if (!Number.isFinite(value)) return value < 0 ? '-Inf' : '+Inf';
  return `${value}`;
}

/** `{a="x",b="y"}`, or '' for no labels. */
export function labelsText(labels: Labels | undefined): string {
  let text = '';
  for (const name in labels) {
    text += `${text === '' ? '{' : ','}${name}="${labelValue(labels[name]!)}"`;
  }
  return text === '' ? '' : `${text}}`;
}

/** The HELP and TYPE lines of a metric: written once, at registration. */
export function headerText(name: string, help: string, type: string): string {
  return `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}`;
}

/** The metric's exposition: its header, then one line per sample. */
export function familyText(header: string, name: string, samples: readonly Sample[]): string {
  let text = header;
  for (const sample of samples) {
    const value = sampleText(sample.value);
    text += `\n${sample.metricName ?? name}${labelsText(sample.labels)} ${value}`;
  }
  return text;
}
