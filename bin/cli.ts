// The command-line vocabulary: a command, its I/O, and the usage error every command reports.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/usage-error.js';

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Full help text, printed by `orderflow NAME --help`. */
  readonly usage: string;
  /** Returns the process exit code. */
  run(argv: readonly string[], io: CommandIo): Promise<number>;
}

export { UsageError };

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** Strict option parsing: unknown options and missing values become a UsageError. */
export function parseOptions<O extends OptionSpec>(
  argv: readonly string[], options: O, allowPositionals = false,
) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

/** `--data-dir` or ORDERFLOW_DATA_DIR or ./data. */
export function dataDirOf(flag: string | undefined, io: CommandIo): string {
  return flag ?? io.env.ORDERFLOW_DATA_DIR ?? './data';
}

/** Dispatches `NAME ...args` to a subcommand table; `--help` anywhere prints usage. */
export async function runSubcommands(
  command: string, usage: string, argv: readonly string[], io: CommandIo,
  table: Record<string, (args: readonly string[]) => Promise<number>>,
): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    io.stdout(usage);
    return sub === undefined ? 2 : 0;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(usage);
    return 0;
  }
  const handler = table[sub];
  if (!handler) {
    throw new UsageError(`unknown ${command} subcommand '${sub}' (expected one of: ` +
      `${Object.keys(table).join(', ')})`);
  }
  return handler(rest);
}
