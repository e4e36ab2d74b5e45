// `orderflow import`: placeholder until its issue lands.
import type { Command } from '../cli.js';
import { UsageError } from '../cli.js';

export const command: Command = {
  name: 'import',
  summary: 'import',
  usage: 'usage: orderflow import (not available yet)\n',
  async run() {
    throw new UsageError('import is not available in this build yet');
  },
};
