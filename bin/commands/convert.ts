// `orderflow convert`: rewrites a replay file in another format (JSON lines, compact, binary),
// for example a JSON recording to binary for the fastest replays. Events keep their order and
// values exactly; malformed lines are skipped, counted and shown.
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command, CommandIo } from '../cli.js';
import { UsageError, parseOptions } from '../cli.js';
import { replayFormatOf } from '../../actors/feed/replay/compact-format.js';
import { convertReplayFile } from '../../actors/feed/replay/convert-replay.js';

const usage = `usage: orderflow convert --in FILE --out FILE --format json|compact|binary

  --in FILE      replay file in any format (what record, import or convert wrote)
  --out FILE     file to write (must not be the input)
  --format F     json (one JSON event per line), compact (versioned text, ~40 % of the
                 size) or binary (fixed-layout records, the fastest to replay); see
                 docs/feeds.md
  Exit code 0 when every line converted, 1 when malformed lines were skipped (they are
  counted and the first ones shown), 2 for bad arguments or an unreadable input.
`;

async function run(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseOptions(argv, {
    in: { type: 'string' }, out: { type: 'string' }, format: { type: 'string' },
  });
  if (!values.in) throw new UsageError('--in FILE is required');
  if (!values.out) throw new UsageError('--out FILE is required');
  if (values.format === undefined) throw new UsageError('--format json|compact|binary is required');
  const format = replayFormatOf(values.format);
  if (format === null) {
    throw new UsageError(`--format must be json, compact or binary (was '${values.format}')`);
  }
  if (!existsSync(values.in)) throw new UsageError(`cannot read input: no file ${values.in}`);
  const output = existsSync(values.out) ? realpathSync(values.out) : resolve(values.out);
  if (realpathSync(values.in) === output) {
    throw new UsageError('--out must not be the input file (it would be overwritten)');
  }
  let result;
  try {
    result = convertReplayFile(values.in, values.out, format);
  } catch (error) {
    throw new UsageError(`cannot convert: ${(error as Error).message}`);
  }
  io.stdout(`converted ${result.events} events to ${values.out} (${format})\n`);
  if (result.badLines === 0) return 0;
  io.stderr(`skipped ${result.badLines} malformed line(s) or record(s):\n${result.badSamples
    .map((b) => `  ${b.line}: ${b.reason}\n`).join('')}`);
  return 1;
}

export const command: Command = {
  name: 'convert',
  summary: 'rewrite a replay file in another format (json, compact, binary)',
  usage,
  run,
};
