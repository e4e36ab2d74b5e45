// `orderflow serve --role ingest|front|all` and ORDERFLOW_REDIS_URL (docs/scale-out.md): which
// parts this process runs, and the Redis that ties the processes together.
import { UsageError } from '../core/usage-error.js';

export const ROLES = ['all', 'ingest', 'front'] as const;
export type Role = (typeof ROLES)[number];

export interface ScaleOutOptions {
  readonly role: Role;
  /** redis:// or rediss:// URL; null on one box. */
  readonly redisUrl: string | null;
}

/** The role and Redis URL from the flag and environment (the flag wins). */
export function scaleOutOptions(roleFlag: string | undefined,
  env: Readonly<Record<string, string | undefined>>): ScaleOutOptions {
  const roleText = roleFlag ?? env.ORDERFLOW_ROLE ?? 'all';
  if (!(ROLES as readonly string[]).includes(roleText)) {
    throw new UsageError(`--role must be one of ${ROLES.join(', ')} (was '${roleText}')`);
  }
  const role = roleText as Role;
  const url = env.ORDERFLOW_REDIS_URL === '' ? undefined : env.ORDERFLOW_REDIS_URL;
  if (url !== undefined && !/^rediss?:\/\/[^\s]+$/.test(url)) {
    throw new UsageError(`ORDERFLOW_REDIS_URL must be a redis:// or rediss:// URL (was '${url}')`);
  }
  if (role !== 'all' && url === undefined) {
    throw new UsageError(`--role ${role} needs ORDERFLOW_REDIS_URL (the Redis the roles share)`);
  }
  return { role, redisUrl: url ?? null };
}
