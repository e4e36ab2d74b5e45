// Entry point of the `orderflow` command line: dispatches to one module per command.
import { systemClock } from '../core/clock.js';
import { createLogger } from '../core/logger.js';
import { processFaults } from '../core/process-faults.js';
import type { Command, CommandIo } from './cli.js';
import { UsageError } from './cli.js';
import { guardUnhandledRejections } from './rejection-guard.js';

// Commands load lazily so `orderflow keys list` does not pay for the server's imports.
const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  serve: {
    summary: 'run the service',
    load: async () => (await import('./commands/serve.js')).command,
  },
  keys: {
    summary: 'create, list, revoke and re-plan API keys',
    load: async () => (await import('./commands/keys.js')).command,
  },
  users: {
    summary: 'create, list, re-plan and disable dashboard accounts',
    load: async () => (await import('./commands/users.js')).command,
  },
  webhooks: {
    summary: 'register, rotate, test and replay webhook endpoints',
    load: async () => (await import('./commands/webhooks.js')).command,
  },
  alerts: {
    summary: 'add, list and remove alerts',
    load: async () => (await import('./commands/alerts.js')).command,
  },
  analyze: {
    summary: 'run the orderflow kernels over a file',
    load: async () => (await import('./commands/analyze.js')).command,
  },
  record: {
    summary: 'record a feed to a replay file',
    load: async () => (await import('./commands/record.js')).command,
  },
  convert: {
    summary: 'rewrite a replay file in another format (json, compact, binary)',
    load: async () => (await import('./commands/convert.js')).command,
  },
  import: {
    summary: 'convert recorded venue data into the replay format',
    load: async () => (await import('./commands/import.js')).command,
  },
  backup: {
    summary: 'copy the data directory consistently while the server runs',
    load: async () => (await import('./commands/backup.js')).command,
  },
};

function topUsage(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: orderflow <command> [options]\n\ncommands:\n${rows.join('\n')}\n\n` +
    `Run 'orderflow <command> --help' for a command's options.\n`;
}

export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(topUsage());
    return name === undefined ? 2 : 0;
  }
  const entry = commands[name];
  try {
    if (!entry) throw new UsageError(`unknown command '${name}'; run 'orderflow --help'`);
    const command = await entry.load();
    if (rest[0] === '--help' || rest[0] === '-h') {
      io.stdout(command.usage);
      return 0;
    }
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`orderflow ${name ?? ''}: ${error.message}\n`.replace('  ', ' '));
      return error.exitCode;
    }
    io.stderr(`orderflow ${name}: ${(error as Error).message}\n`);
    return 1;
  }
}

const isEntry = process.argv[1] !== undefined &&
  /(bin\/main\.ts|bin\/orderflow(\.js)?)$/.test(process.argv[1]);
if (isEntry) {
  const io: CommandIo = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
  };
  // A rejection no code handled is logged and counted; serve keeps serving (rejection-guard.ts).
  guardUnhandledRejections(createLogger().child({ component: 'process' }), systemClock);
  // No top-level await: tests load this module through require() (uvu -r tsx).
  void main(process.argv.slice(2), io).then((code) => {
    // serve keeps the event loop alive and exits itself; everything else exits with its code,
    // and a command that met an unhandled rejection does not say it succeeded.
    if (code === 0 && processFaults.unhandledRejections > 0) code = 1;
    if (code !== -1) process.exitCode = code;
  });
}
