// API Keys: create (shown once, with a copy button), list, revoke after a confirmation.
import { useEffect, useState } from 'preact/hooks';
import { account } from '../api.js';
import * as f from '../format.js';
import { Secret, Status } from '../ui.js';

const PLANS = ['Free', 'Trial', 'Starter', 'Trader', 'Pro', 'Whale', 'API'];

/**
 * Clears the form for the next key. A reset alone would select the first plan (Free): Preact
 * sets `selected` as a property, so no option carries the default that reset() returns to.
 */
function resetForm(form: HTMLFormElement, plan: string): void {
  form.reset();
  (form.elements.namedItem('plan') as HTMLSelectElement).value = plan;
}

export function Keys(props: { plan: string }) {
  const [keys, setKeys] = useState<any[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const load = () => account('GET', 'keys')
    .then((b) => setKeys(b.keys), (e) => setError(e.message));
  useEffect(() => { void load(); }, []);
  const create = async (event: Event) => {
    event.preventDefault();
    const fields = new FormData(event.target as HTMLFormElement);
    try {
      const created = await account('POST', 'keys',
        { plan: fields.get('plan'), label: fields.get('label') });
      setShown(created.key);
      setError(null);
      resetForm(event.target as HTMLFormElement, props.plan);
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const revoke = async (prefix: string) => {
    if (!confirm(`Revoke ${prefix}? Programs using it get 401 from now on.`)) return;
    try {
      await account('DELETE', `keys/${prefix}`);
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const allowed = PLANS.slice(0, PLANS.indexOf(props.plan) + 1);
  return (
    <main id="main">
      <header class="page-head"><h1>API Keys</h1></header>
      <form class="inline" onSubmit={create}>
        <label for="key-label">Label</label>
        <input id="key-label" name="label" maxLength={100} placeholder="e.g. trading bot" />
        <label for="key-plan">Plan</label>
        <select id="key-plan" name="plan">
          {allowed.map((p) => <option value={p} selected={p === props.plan}>{p}</option>)}
        </select>
        <button type="submit" class="primary">Create key</button>
      </form>
      {shown && <Secret label="Your new key" value={shown}
        note="shown only now; store it safely. Listings show its prefix only." />}
      <Status error={error} loading={keys === null && !error}
        empty={keys?.length === 0 ? 'No keys yet: create one above.' : undefined} />
      {keys && keys.length > 0 && (
        <div class="table-wrap"><table>
          <caption class="sr-only">Your API keys</caption>
          <thead><tr><th scope="col">Prefix</th><th scope="col">Label</th><th scope="col">Plan</th>
            <th scope="col">Created</th><th scope="col">Last used</th>
            <th scope="col" class="num">Today</th>
            <th scope="col"><span class="sr-only">Actions</span></th>
          </tr></thead>
          <tbody>{keys.map((k) => (
            <tr class={k.revokedAt ? 'revoked' : ''}>
              <td><code data-prefix>{k.prefix}</code></td><td>{k.label ?? '—'}</td>
              <td>{k.plan}</td>
              <td>{f.time(k.createdAt)}</td><td>{k.lastUsedDay ?? 'never'}</td>
              <td class="num">
                {k.usedToday.toLocaleString('en-US')} / {k.limit.toLocaleString('en-US')}</td>
              <td>{k.revokedAt ? `revoked ${f.time(k.revokedAt)}`
                : <button type="button" class="danger" onClick={() => revoke(k.prefix)}>
                  Revoke<span class="sr-only"> {k.prefix}</span></button>}</td>
            </tr>))}</tbody>
        </table></div>)}
    </main>
  );
}
