// Alerts: definitions, parsing, evaluators, the engine, payloads and Entry Signal matching.
export * from './alert-types.js';
export * from './alert-parse.js';
export * from './alert-evaluators.js';
export * from './alert-engine.js';
export * from './alert-payload.js';
export * from './entry-alerts.js';
export * from './webhook-url.js';
