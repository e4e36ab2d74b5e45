#!/usr/bin/env node
// The `orderflow` command: loads the TypeScript sources through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
