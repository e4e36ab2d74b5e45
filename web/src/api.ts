// Talking to the service: the account API (session cookie + X-CSRF-Token) and the data
// endpoints (the session's own dashboard key, never the cookie), with ETag revalidation.

export interface Problem { status: number; title: string; detail: string; code: string }

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail || problem.title);
  }
}

const STORE = 'orderflow.session';
interface Held { csrf: string; key: string | null }

function held(): Held {
  try {
    return JSON.parse(sessionStorage.getItem(STORE) ?? '') as Held;
  } catch {
    return { csrf: '', key: null };
  }
}

export function remember(csrf: string, key: string | null): void {
  sessionStorage.setItem(STORE, JSON.stringify({ csrf, key }));
}

export function forget(): void {
  sessionStorage.removeItem(STORE);
}

async function problemOf(response: Response): Promise<Problem> {
  try {
    return await response.json() as Problem;
  } catch {
    return { status: response.status, title: response.statusText, detail: '', code: 'internal' };
  }
}

/** A call to /api/v1/account/...; throws ApiError with the problem on a non-2xx answer. */
export async function account<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (method !== 'GET') headers['X-CSRF-Token'] = held().csrf;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`/api/v1/account/${path}`, {
    method, headers, credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new ApiError(await problemOf(response));
  return response.json() as Promise<T>;
}

/** The session's dashboard key, minted anew when this tab has none. */
async function dashboardKey(): Promise<string> {
  const current = held();
  if (current.key) return current.key;
  const minted = await account<{ key: string }>('POST', 'session/key');
  remember(current.csrf, minted.key);
  return minted.key;
}

const etags = new Map<string, { etag: string; body: unknown }>();

/** GET a data endpoint with the dashboard key; a 304 answers the body held from before. */
export async function data<T = any>(path: string): Promise<T> {
  const key = await dashboardKey();
  const cached = etags.get(path);
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (cached) headers['If-None-Match'] = cached.etag;
  // The answers say max-age and the browser keys its cache by URL, not by key: without
  // 'no-cache' a user signing in after another in the same browser would be handed the other's
  // answer. Revalidating asks the server, which checks this key's plan first.
  const response = await fetch(path, { headers, credentials: 'omit', cache: 'no-cache' });
  if (response.status === 304 && cached) return cached.body as T;
  if (response.status === 401) {
    // The key was revoked (sign-out elsewhere, expiry): mint another on the next call.
    remember(held().csrf, null);
  }
  if (!response.ok) throw new ApiError(await problemOf(response));
  const body = await response.json();
  const etag = response.headers.get('ETag');
  if (etag) etags.set(path, { etag, body });
  return body as T;
}
