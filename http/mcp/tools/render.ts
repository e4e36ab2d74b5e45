// Text renderings of tool answers: a short table or field list a person can read in a chat.
import type { Row } from './records.js';

const cellCharsMax = 24;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'number') {
    return Number.isInteger(value) ? String(value) : formatNumber(value);
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > cellCharsMax ? text.slice(0, cellCharsMax - 1) + '…' : text;
}

function formatNumber(value: number): string {
  const shown = Math.abs(value) >= 1 ? value.toFixed(4) : value.toPrecision(4);
  return String(Number(shown));
}

/** An aligned table of the given columns, one row per item. */
export function table(rows: readonly Row[], columns: readonly string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, i) =>
    Math.max(column.length, ...cells.map((line) => line[i].length)));
  const line = (parts: readonly string[]) =>
    parts.map((part, i) => part.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns), ...cells.map(line)].join('\n');
}

/** One `name: value` line per field; arrays show their length, objects their compact JSON. */
export function fields(row: Row): string {
  return Object.entries(row).map(([name, value]) => {
    if (Array.isArray(value)) return `${name}: [${value.length} items]`;
    if (typeof value === 'object' && value !== null) {
      const text = JSON.stringify(value);
      return `${name}: ${text.length > 200 ? text.slice(0, 199) + '…' : text}`;
    }
    return `${name}: ${cell(value)}`;
  }).join('\n');
}
