// One structured logger for the whole service: levels, JSON lines when not on a TTY.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const levelRank: Record<LogLevel, number> = {
  debug: 10, info: 20, warn: 30, error: 40, silent: 99,
};

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  level: LogLevel;
  /** JSON lines (default when stderr is not a TTY) or a human line. */
  json: boolean;
  write: (line: string) => void;
}

// Fields whose names say they hold a credential are never written out.
const secretField = /key|secret|authorization|token|signature/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (secretField.test(name) && name !== 'keyPrefix') out[name] = '[redacted]';
    else if (value instanceof Error) out[name] = { message: value.message, stack: value.stack };
    else out[name] = value;
  }
  return out;
}

export function createLogger(
  options: Partial<LoggerOptions> = {},
  bindings: Record<string, unknown> = {},
): Logger {
  const level = options.level ?? 'info';
  const json = options.json ?? !process.stderr.isTTY;
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (levelRank[lvl] < levelRank[level]) return;
    const all = redact({ ...bindings, ...fields });
    const time = new Date().toISOString();
    if (json) write(JSON.stringify({ time, level: lvl, msg, ...all }));
    else {
      const rest = Object.keys(all).length ? ' ' + JSON.stringify(all) : '';
      write(`${time} ${lvl.toUpperCase().padEnd(5)} ${msg}${rest}`);
    }
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (b) => createLogger({ level, json, write }, { ...bindings, ...b }),
  };
}

/** A logger that drops everything: for tests and benches. */
export const silentLogger: Logger = createLogger({ level: 'silent', write: () => {} });
