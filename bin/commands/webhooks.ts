// `orderflow webhooks`: placeholder until its issue lands.
import type { Command } from '../cli.js';
import { UsageError } from '../cli.js';

export const command: Command = {
  name: 'webhooks',
  summary: 'webhooks',
  usage: 'usage: orderflow webhooks (not available yet)\n',
  async run() {
    throw new UsageError('webhooks is not available in this build yet');
  },
};
