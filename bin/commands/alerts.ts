// `orderflow alerts`: placeholder until its issue lands.
import type { Command } from '../cli.js';
import { UsageError } from '../cli.js';

export const command: Command = {
  name: 'alerts',
  summary: 'alerts',
  usage: 'usage: orderflow alerts (not available yet)\n',
  async run() {
    throw new UsageError('alerts is not available in this build yet');
  },
};
