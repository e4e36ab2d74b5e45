// The dashboard on the front: its static pages and the account API, registered on the uWS app
// ahead of the REST dispatcher (which keeps every other path).
import type { RouteRegistrar } from '../front-guard.js';
import { AccountApi, ACCOUNT_PREFIX } from './account-api.js';
import type { AccountApiDeps } from './account-deps.js';
import { StaticFiles } from './static-files.js';

export type { AccountApiDeps } from './account-deps.js';

export interface Dashboard {
  readonly api: AccountApi;
  readonly files: StaticFiles;
  register(app: RouteRegistrar): void;
}

export function createDashboard(deps: AccountApiDeps, distDir: string): Dashboard {
  const api = new AccountApi(deps);
  const files = new StaticFiles(distDir, deps.trusted);
  return {
    api, files,
    register(app) {
      app.any(`${ACCOUNT_PREFIX}*`, api.handle);
      files.register(app);
    },
  };
}
