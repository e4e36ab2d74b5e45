// Alerts: webhook endpoints (add with the secret shown once, rotate, Send test event with the
// receiver's status and latency, the delivery log with replay) and alerts of every kind.
import { useEffect, useState } from 'preact/hooks';
import { account } from '../api.js';
import { checkAlert, describeAlertOptions, KINDS } from '../alert-form.js';
import * as f from '../format.js';
import { Secret, Status } from '../ui.js';

function Deliveries(props: { endpointId: string }) {
  const [rows, setRows] = useState<any[] | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = () => account('GET', `endpoints/${props.endpointId}/deliveries`)
    .then((b) => setRows(b.deliveries), (e) => setNote(e.message));
  useEffect(() => { void load(); }, [props.endpointId]);
  const replay = async (eventId: string) => {
    try {
      const r = await account('POST', `events/${eventId}/replay`);
      setNote(`Replayed ${eventId} to ${r.deliveries} endpoint(s).`);
      await load();
    } catch (e) {
      setNote((e as Error).message);
    }
  };
  return (
    <div class="deliveries">
      <Status error={note} loading={rows === null && !note}
        empty={rows?.length === 0 ? 'No delivery yet.' : undefined} />
      {rows && rows.length > 0 && (
        <div class="table-wrap"><table>
          <caption>Delivery log</caption>
          <thead><tr><th scope="col">Event</th><th scope="col">Type</th><th scope="col">Status</th>
            <th scope="col" class="num">Attempts</th><th scope="col">Last result</th>
            <th scope="col">Next retry</th><th scope="col"><span class="sr-only">Actions</span></th>
          </tr></thead>
          <tbody>{rows.map((d) => (
            <tr data-event={d.eventId}><td><code>{d.eventId}</code></td><td>{d.type}</td>
              <td class={`state ${d.status}`}>{d.status}</td><td class="num">{d.attempts}</td>
              <td>{d.lastResult ?? '—'}</td><td>{f.time(d.nextAttemptAt)}</td>
              <td>{d.status !== 'pending' &&
                <button type="button" onClick={() => replay(d.eventId)}>
                {d.status === 'dead' ? 'Replay' : 'Send again'}</button>}</td></tr>))}</tbody>
        </table></div>)}
    </div>
  );
}

function Endpoint(props: { e: any; reload: () => void }) {
  const { e } = props;
  const [secret, setSecret] = useState<string | null>(null);
  const [test, setTest] = useState<string | null>(null);
  const [log, setLog] = useState(0);
  const act = async (what: () => Promise<void>) => {
    try { await what(); } catch (err) { setTest((err as Error).message); }
  };
  return (
    <li class="card endpoint" data-endpoint={e.id}>
      <h3><code>{e.url}</code></h3>
      <p class="meta">{e.id} · key {e.keyPrefix} · added {f.time(e.createdAt)}
        {e.disabledAt && <strong class="down"> · disabled ({e.disabledReason})</strong>}</p>
      <div class="actions">
        <button type="button" onClick={() => act(async () => {
          setTest('Sending…');
          const r = await account('POST', `endpoints/${e.id}/test`);
          setTest(r.statusCode === null ? `No answer: ${r.result}`
            : `Receiver answered ${r.statusCode} in ${r.latencyMs} ms` +
              (r.delivered ? ' — delivered' : ` — ${r.result}`));
          setLog((n) => n + 1);
        })}>Send test event</button>
        <button type="button" onClick={() => act(async () => {
          if (!confirm('Rotate the secret? The old one keeps signing for 24 h.')) return;
          setSecret((await account('POST', `endpoints/${e.id}/rotate`)).secret);
        })}>Rotate secret</button>
        <button type="button" class="danger" onClick={() => act(async () => {
          if (!confirm(`Remove the endpoint ${e.url}?`)) return;
          await account('DELETE', `endpoints/${e.id}`);
          props.reload();
        })}>Remove</button>
      </div>
      {test && <p class="status" role="status" data-test-result>{test}</p>}
      {secret && <Secret label="New signing secret" value={secret}
        note="shown only now; the previous secret also signs for 24 h." />}
      <Deliveries key={log} endpointId={e.id} />
    </li>
  );
}

function AlertForm(props: { endpoints: any[]; onAdded: () => void }) {
  const [kind, setKind] = useState('price');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const values = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]));
    const found = checkAlert(kind, values);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length > 0) return;
    try {
      await account('POST', 'alerts', { ...values, kind });
      form.reset();
      props.onAdded();
    } catch (e) {
      setServerError((e as Error).message);
    }
  };
  return (
    <form class="grid-form" onSubmit={submit} noValidate aria-label="New alert">
      <label for="alert-kind">Kind</label>
      <select id="alert-kind" name="kind" value={kind}
        onChange={(e) => { setKind((e.target as HTMLSelectElement).value); setErrors({}); }}>
        {Object.keys(KINDS).map((k) => <option value={k}>{k}</option>)}
      </select>
      <label for="alert-endpoint">Deliver to</label>
      <select id="alert-endpoint" name="endpointId">
        {props.endpoints.map((e) => <option value={e.id}>{e.url}</option>)}
      </select>
      {KINDS[kind].map((field) => (
        <>
          <label for={`alert-${field.name}`}>{field.label}</label>
          <div>
            {field.choices
              ? <select id={`alert-${field.name}`} name={field.name}>
                {!field.required && <option value="">default</option>}
                {field.choices.map((c) => <option value={c}>{c}</option>)}</select>
              : <input id={`alert-${field.name}`} name={field.name} placeholder={field.hint}
                aria-invalid={errors[field.name] ? 'true' : undefined}
                aria-describedby={errors[field.name] ? `err-${field.name}` : undefined} />}
            {errors[field.name] && <p class="field-error" id={`err-${field.name}`}
              role="alert">{errors[field.name]}</p>}
          </div>
        </>))}
      {serverError && <p class="status error" role="alert">{serverError}</p>}
      <button type="submit" class="primary">Add alert</button>
    </form>
  );
}

export function Alerts() {
  const [keys, setKeys] = useState<any[]>([]);
  const [endpoints, setEndpoints] = useState<any[] | null>(null);
  const [alerts, setAlerts] = useState<any[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const load = async () => {
    try {
      const [k, e, a] = await Promise.all([account('GET', 'keys'), account('GET', 'endpoints'),
        account('GET', 'alerts')]);
      setKeys(k.keys.filter((x: any) => !x.revokedAt));
      setEndpoints(e.endpoints);
      setAlerts(a.alerts);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  useEffect(() => { void load(); }, []);
  const add = async (event: Event) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const fields = new FormData(form);
    try {
      const created = await account('POST', 'endpoints',
        { keyPrefix: fields.get('keyPrefix'), url: fields.get('url') });
      setSecret(created.secret);
      setError(null);
      form.reset();
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <main id="main">
      <header class="page-head"><h1>Alerts</h1></header>
      <h2>Webhook endpoints</h2>
      {keys.length === 0 ? <p class="status empty">Create an API key first (Pro plan or above
        for webhooks): endpoints and alerts belong to a key.</p> : (
        <form class="inline" onSubmit={add}>
          <label for="ep-url">URL</label>
          <input id="ep-url" name="url" type="url" required
            placeholder="https://example.com/hook" />
          <label for="ep-key">Key</label>
          <select id="ep-key" name="keyPrefix">
            {keys.map((k) => (
              <option value={k.prefix}>{k.prefix} {k.label ?? ''} ({k.plan})</option>))}
          </select>
          <button type="submit" class="primary">Add endpoint</button>
        </form>)}
      {secret && <Secret label="Signing secret" value={secret}
        note="shown only now; your receiver verifies X-Service-Signature with it." />}
      <Status error={error} loading={endpoints === null && !error}
        empty={endpoints?.length === 0 ? 'No endpoint yet.' : undefined} />
      <ul class="endpoints">{(endpoints ?? []).map((e) => <Endpoint e={e} reload={load} />)}</ul>
      <h2>Alerts</h2>
      {endpoints && endpoints.length > 0
        ? <AlertForm endpoints={endpoints} onAdded={load} />
        : <p class="status empty">Add an endpoint first: alerts are delivered to one.</p>}
      {alerts.length === 0 ? <p class="status empty">No alert yet.</p> : (
        <div class="table-wrap"><table>
          <caption class="sr-only">Your alerts</caption>
          <thead><tr><th scope="col">Kind</th><th scope="col">Symbol</th>
            <th scope="col">Options</th><th scope="col">Endpoint</th>
            <th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>{alerts.map((a) => (
            <tr data-alert={a.id}><td>{a.kind}</td><td>{a.symbol ?? 'all'}</td>
              <td>{describeAlertOptions(a.options)}</td>
              <td><code>{a.webhookUrl}</code></td>
              <td><button type="button" class="danger" onClick={async () => {
                if (!confirm('Remove this alert?')) return;
                await account('DELETE', `alerts/${a.id}`).catch((e) => setError(e.message));
                await load();
              }}>Remove<span class="sr-only"> alert {a.id}</span></button></td></tr>))}</tbody>
        </table></div>)}
    </main>
  );
}
