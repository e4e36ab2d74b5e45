// Stands in for `ajv` and `ajv-formats` in the service's bundle (bin/orderflow.js). The MCP SDK
// imports them for a default the service replaces (http/mcp/no-schema-validator.ts): loading
// them took 0.3-0.4 s of the main thread at every start, while the shards warm up.
export default function ajvNotBundled() {
  throw new Error('ajv is not in the orderflow bundle: give the MCP server a jsonSchemaValidator');
}
