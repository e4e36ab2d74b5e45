// `orderflow backup`: placeholder until its issue lands.
import type { Command } from '../cli.js';
import { UsageError } from '../cli.js';

export const command: Command = {
  name: 'backup',
  summary: 'backup',
  usage: 'usage: orderflow backup (not available yet)\n',
  async run() {
    throw new UsageError('backup is not available in this build yet');
  },
};
