// `orderflow import`: converts recorded venue data (e.g. test/fixtures/venue) into the replay
// format.
import type { Command, CommandIo } from '../cli.js';
import { UsageError, parseOptions } from '../cli.js';
import { convert } from '../../actors/feed/import/convert.js';
import { replayFormatOf } from '../../actors/feed/replay/compact-format.js';
import { LineWriter } from '../../actors/feed/replay/line-writer.js';

const usage = `usage: orderflow import --out FILE.ndjson [--ws FILE]... [--meta FILE]...
                        [--perp-dexs FILE] [--trades-csv FILE --csv-symbol SYM]
                        [--universe-time ISO] [--format json|compact|binary]

  --ws FILE           home venue WS recording, lines '<receive ns> <frame JSON>' (trades,
                      l2Book, activeAssetCtx); trades de-duplicated by tid
  --meta FILE         metaAndAssetCtxs answer (main dex or a builder dex such as xyz);
                      all --meta files together make one universe event, plus home funding
  --perp-dexs FILE    perpDexs answer: builder dexes of --meta must be listed in it
  --trades-csv FILE   trades CSV (trade_time_ms, price, size, taker_side, trade_id, ...)
  --csv-symbol SYM    symbol the CSV trades are filed under (default BTC)
  --universe-time ISO time of the universe event (default: the earliest other event)
  --format F          replay format written: json (default), compact or binary
                      (see orderflow record --help and docs/feeds.md)
  Output is sorted by time; the same inputs give the same bytes.
`;

async function run(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseOptions(argv, {
    out: { type: 'string' }, ws: { type: 'string', multiple: true },
    meta: { type: 'string', multiple: true }, 'perp-dexs': { type: 'string' },
    'trades-csv': { type: 'string', multiple: true }, 'csv-symbol': { type: 'string' },
    'universe-time': { type: 'string' }, format: { type: 'string' },
  });
  if (!values.out) throw new UsageError('--out FILE is required');
  const format = replayFormatOf(values.format);
  if (format === null) {
    throw new UsageError(`--format must be json, compact or binary (was '${values.format}')`);
  }
  const inputs = (values.ws?.length ?? 0) + (values.meta?.length ?? 0) +
    (values['trades-csv']?.length ?? 0);
  if (inputs === 0) throw new UsageError('at least one of --ws, --meta or --trades-csv is needed');
  let universeMs: number | null = null;
  if (values['universe-time'] !== undefined) {
    universeMs = Date.parse(values['universe-time']);
    if (!Number.isFinite(universeMs)) {
      throw new UsageError(`--universe-time must be an ISO 8601 instant (was ` +
        `'${values['universe-time']}')`);
    }
  }
  let result;
  try {
    result = convert({ ws: values.ws ?? [], meta: values.meta ?? [],
      perpDexs: values['perp-dexs'] ?? null, tradesCsv: values['trades-csv'] ?? [],
      csvSymbol: values['csv-symbol'] ?? 'BTC', universeMs });
  } catch (error) {
    throw new UsageError(`cannot read input: ${(error as Error).message}`);
  }
  if (!result.ok) throw new UsageError(result.error);
  const writer = new LineWriter(values.out, { format });
  for (const e of result.events) writer.write(e);
  writer.close();
  io.stdout(`imported ${writer.lines} events to ${values.out}; dropped ` +
    `${JSON.stringify(result.dropped)}\n`);
  return 0;
}

export const command: Command = {
  name: 'import',
  summary: 'convert recorded venue data into the replay format',
  usage,
  run,
};
