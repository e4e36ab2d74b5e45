// The dashboard on the front: its static pages and the account API, registered on the uWS app
// ahead of the REST dispatcher (which keeps every other path), and the sweep that ends expired
// sessions and revokes their keys while the front serves.
import type { RouteRegistrar } from '../front-guard.js';
import { AccountApi, ACCOUNT_PREFIX } from './account-api.js';
import type { AccountApiDeps } from './account-deps.js';
import { SessionSweeper } from './session-sweep.js';
import { SessionManager } from './sessions.js';
import { StaticFiles } from './static-files.js';

export type { AccountApiDeps } from './account-deps.js';

export interface Dashboard {
  readonly api: AccountApi;
  readonly files: StaticFiles;
  readonly sweeper: SessionSweeper;
  /** Registers the routes and starts the session sweep. */
  register(app: RouteRegistrar): void;
  /** Stops the sweep (before the stores close). */
  close(): Promise<void>;
}

export function createDashboard(deps: AccountApiDeps, distDir: string): Dashboard {
  const sessions = new SessionManager(deps.accounts, deps.clock,
    (prefix) => deps.keys.revoke(prefix));
  const api = new AccountApi(deps, sessions);
  const files = new StaticFiles(distDir, deps.trusted);
  const sweeper = new SessionSweeper({ accounts: deps.accounts, keys: deps.keys, sessions,
    clock: deps.clock, logger: deps.logger });
  return {
    api, files, sweeper,
    register(app) {
      app.any(`${ACCOUNT_PREFIX}*`, api.handle);
      files.register(app);
      sweeper.start(deps.sessionSweepMs);
    },
    close: () => sweeper.stop(),
  };
}
