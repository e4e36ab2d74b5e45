// JSON Schema (2020-12, as OpenAPI 3.1 uses it) building blocks shared by the view schemas.
import {
  DIRECTIONS, PLANS, REGIMES, VENUES, VPIN_LEVELS, WALLET_CATEGORIES,
} from '../../core/messages.js';

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const num: Schema = { type: 'number' };
export const int: Schema = { type: 'integer' };
export const str: Schema = { type: 'string' };
export const bool: Schema = { type: 'boolean' };
export const time: Schema = { type: 'string', format: 'date-time' };
export const nullable = (schema: Schema): Schema => {
  const type = [schema.type, 'null'];
  if (Array.isArray(schema.enum)) return { ...schema, type, enum: [...schema.enum, null] };
  return { ...schema, type };
};
export const array = (items: Schema): Schema => ({ type: 'array', items });
export const oneOf = (values: readonly string[]): Schema => ({ type: 'string', enum: values });
export const described = (schema: Schema, description: string): Schema =>
  ({ ...schema, description });

/** An object whose listed properties are all required (new fields may appear: not closed). */
export function object(properties: Record<string, Schema>, optional: readonly string[] = []):
  Schema {
  return {
    type: 'object',
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    properties,
  };
}

export const enums = {
  direction: oneOf(DIRECTIONS),
  regime: oneOf(REGIMES),
  vpinLevel: oneOf(VPIN_LEVELS),
  category: oneOf(WALLET_CATEGORIES),
  plan: oneOf(PLANS),
  venue: oneOf(VENUES),
  side: oneOf(['long', 'short']),
};

export const score: Schema = described({ type: 'integer', minimum: -100, maximum: 100 },
  'Composite signal score: -100 strong sell to +100 strong buy.');
export const vpin: Schema = described({ type: 'number', minimum: 0, maximum: 1 },
  'VPIN, 0 to 1.');

/** updatedAt and cadenceMs: every feed body carries them (docs/decisions.md "Feeds"). */
export const freshness: Record<string, Schema> = {
  updatedAt: described(time, 'When the producer last refreshed this view (UTC, ms).'),
  cadenceMs: described({ type: 'integer', minimum: 1 },
    'How often the producer refreshes this view: a sensible polling period.'),
};

/** stale and asOf: a pair whose upstream feed stopped says so. */
export const staleness: Record<string, Schema> = {
  stale: described(bool, 'True when the upstream feed has had no data for 3 cadences.'),
  asOf: described(nullable(time), 'Time of the newest data folded in (null before any).'),
};

export const fundingAnnualized: Schema = described(num,
  'Percent: fundingRate * (24 / intervalHours) * 365 * 100, on the venue\'s real interval.');
