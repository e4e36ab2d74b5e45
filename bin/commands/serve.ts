// `orderflow serve`: placeholder until its issue lands.
import type { Command } from '../cli.js';
import { UsageError } from '../cli.js';

export const command: Command = {
  name: 'serve',
  summary: 'serve',
  usage: 'usage: orderflow serve (not available yet)\n',
  async run() {
    throw new UsageError('serve is not available in this build yet');
  },
};
