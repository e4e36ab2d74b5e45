// The JSON Schema validator an MCP session's server holds. The SDK uses it for one thing: to
// check a client's answer to an elicitation request, which these endpoints never send (tool
// arguments are checked by their zod schemas). Its default builds an ajv instance with every
// format for each session, and the service's bundle leaves ajv out (bin/no-ajv.js).
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export const noSchemaValidator: jsonSchemaValidator = {
  getValidator() {
    throw new Error('the orderflow MCP server sends no elicitation requests: no schema validator');
  },
};
