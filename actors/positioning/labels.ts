// The operator's label file: `{ "<address>": { "label": "...", "category"?: "..." } }`.
// A label names a wallet; a category in it overrides the rules.
import { readFile } from 'node:fs/promises';
import { WALLET_CATEGORIES, type WalletCategory } from '../../core/messages.js';
import {
  failure, normalizeAddress, positioningErrors as errors, success, type ParseResult,
} from './errors.js';

export interface WalletLabel {
  readonly label: string;
  readonly category: WalletCategory | null;
}

/** Lower-case address -> label. */
export type LabelMap = ReadonlyMap<string, WalletLabel>;

/** Bounds of the file: entries beyond them are refused, not truncated silently. */
export const labelFileLimits = Object.freeze({ entriesMax: 100_000, labelCharsMax: 200 });

/** Parses the text of a label file; the error names the entry and field at fault. */
export function parseLabelFile(text: string): ParseResult<LabelMap> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return failure(errors.invalidField('label file', 'JSON', (error as Error).message));
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return failure(errors.invalidField('label file', 'an object keyed by address', document));
  }
  const entries = Object.entries(document as Record<string, unknown>);
  if (entries.length > labelFileLimits.entriesMax) {
    return failure(errors.tooMany('label file', labelFileLimits.entriesMax, entries.length));
  }
  const labels = new Map<string, WalletLabel>();
  for (const [key, value] of entries) {
    const parsed = parseEntry(key, value);
    if (!parsed.ok) return failure(parsed.error);
    labels.set(parsed.value[0], parsed.value[1]);
  }
  return success(labels);
}

function parseEntry(key: string, value: unknown): ParseResult<[string, WalletLabel]> {
  const address = normalizeAddress(key);
  if (address === null) {
    return failure(errors.invalidField(`label file key ${JSON.stringify(key)}`,
      'a wallet address (0x + 40 hex)', key));
  }
  const at = `label file ["${key}"]`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return failure(errors.invalidField(at, 'an object with label and optional category', value));
  }
  const { label, category } = value as { label?: unknown; category?: unknown };
  if (typeof label !== 'string' || label.length === 0 ||
    label.length > labelFileLimits.labelCharsMax) {
    return failure(errors.invalidField(`${at}.label`,
      `a string of 1 to ${labelFileLimits.labelCharsMax} characters`, label));
  }
  if (category !== undefined && category !== null &&
    !(WALLET_CATEGORIES as readonly unknown[]).includes(category)) {
    return failure(errors.invalidField(`${at}.category`,
      `one of ${WALLET_CATEGORIES.join(', ')}`, category));
  }
  return success([address, { label, category: (category ?? null) as WalletCategory | null }]);
}

/** Reads and parses a label file; a missing or unreadable file is an error value too. */
export async function loadLabelFile(path: string): Promise<ParseResult<LabelMap>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return failure(errors.invalidField(`label file ${path}`, 'a readable file',
      (error as NodeJS.ErrnoException).code ?? (error as Error).message));
  }
  return parseLabelFile(text);
}
