// `orderflow analyze`: placeholder until its issue lands.
import type { Command } from '../cli.js';
import { UsageError } from '../cli.js';

export const command: Command = {
  name: 'analyze',
  summary: 'analyze',
  usage: 'usage: orderflow analyze (not available yet)\n',
  async run() {
    throw new UsageError('analyze is not available in this build yet');
  },
};
