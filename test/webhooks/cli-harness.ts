// Runs `orderflow webhooks` against an already open lmdb root with a fake key directory, so
// tests exercise the command without the store's own opening rules.
import type { RootDatabase } from 'lmdb';
import type { KeyDirectory } from '../../core/messages.js';
import { createWebhooksCommand } from '../../bin/commands/webhooks.js';

export function cliOn(root: RootDatabase, keys: KeyDirectory) {
  // close() is a no-op: the test owns the root and closes it itself.
  const command = createWebhooksCommand(async () => ({ root, keys, close: async () => {} }));
  return { command };
}
