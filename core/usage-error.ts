// The error of bad arguments or input, shared by the command line and the option parsers of
// every layer below it (the scale-out roles' options among them).

/** Bad arguments or input: printed as one line on stderr, exit code 2. */
export class UsageError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'UsageError';
    this.exitCode = exitCode;
  }
}
