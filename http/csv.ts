// CSV (RFC 4180) from rows of a JSON view: quoted where needed, and text cells that a
// spreadsheet would run as a formula are prefixed with an apostrophe. Numbers are written with
// at most 10 significant digits, as in the JSON answers (core/json-numbers.ts).
import { roundSignificant } from '../core/json-numbers.js';

export interface Column {
  readonly header: string;
  readonly value: (row: Record<string, unknown>) => unknown;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    return Number.isFinite(value) ? String(roundSignificant(value)) : '';
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = "'" + text;
  return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
}

/** The CSV text: a header line, then one line per row, CRLF line ends. */
export function toCsv(columns: readonly Column[], rows: readonly Record<string, unknown>[]):
  string {
  const lines = [columns.map((c) => cell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(c.value(row))).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** A column that reads one field of the row. */
export function field(name: string): Column {
  return { header: name, value: (row) => row[name] };
}
