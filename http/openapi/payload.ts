// The OpenAPI document served at /api/v1/openapi.json, serialized once with its ETag.
import { bytesOf } from '../bytes.js';
import type { Payload } from '../respond.js';
import { strongEtag } from '../snapshots.js';
import { buildOpenApiDocument } from './document.js';

export function openApiPayload(): Payload {
  const body = Buffer.from(JSON.stringify(buildOpenApiDocument()));
  return {
    contentType: 'application/json',
    body: bytesOf(body),
    etag: strongEtag(body),
    cacheControl: 'max-age=3600',
  };
}
