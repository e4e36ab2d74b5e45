// `orderflow keys`: placeholder until its issue lands.
import type { Command } from '../cli.js';
import { UsageError } from '../cli.js';

export const command: Command = {
  name: 'keys',
  summary: 'keys',
  usage: 'usage: orderflow keys (not available yet)\n',
  async run() {
    throw new UsageError('keys is not available in this build yet');
  },
};
