// `orderflow record`: placeholder until its issue lands.
import type { Command } from '../cli.js';
import { UsageError } from '../cli.js';

export const command: Command = {
  name: 'record',
  summary: 'record',
  usage: 'usage: orderflow record (not available yet)\n',
  async run() {
    throw new UsageError('record is not available in this build yet');
  },
};
