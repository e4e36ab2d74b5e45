// Usage: per key, today's count of the daily limit, when it resets (midnight Europe/Rome) and
// the days before (as far as the store keeps them).
import { useEffect, useState } from 'preact/hooks';
import { account } from '../api.js';
import * as f from '../format.js';
import { Status } from '../ui.js';

export function Usage() {
  const [body, setBody] = useState<any>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => { account('GET', 'usage').then(setBody, (e) => setError(e.message)); }, []);
  const keys: any[] = body?.keys ?? [];
  return (
    <main id="main">
      <header class="page-head"><h1>Usage</h1></header>
      <Status error={error} loading={!body && !error}
        empty={body && keys.length === 0 ? 'No live key yet.' : undefined} />
      {keys.map((k) => {
        const peak = Math.max(1, ...k.days.map((d: any) => d.used));
        return (
          <section class="card">
            <h2><code>{k.prefix}</code>
              {' '}{k.session ? '(dashboard sessions: every sign-in of this account together)'
                : k.label ?? ''}</h2>
            <p class="figures-line"><strong>{k.usedToday.toLocaleString('en-US')}</strong> of
              {' '}{k.limit.toLocaleString('en-US')} today · resets {f.time(k.resetsAt)}
              {' '}(midnight Europe/Rome)</p>
            <div class="gauge" role="progressbar" aria-label="Used today" aria-valuemin={0}
              aria-valuemax={k.limit} aria-valuenow={k.usedToday}>
              <span style={{ width: `${Math.min(100, (k.usedToday / Math.max(1, k.limit)) * 100)}%`
              }} />
            </div>
            <ol class="days" aria-label="Last 30 days, newest first">{k.days.map((d: any) => (
              <li title={`${d.day}: ${d.used}`}>
                <span class="bar" style={{ height: `${(d.used / peak) * 100}%` }} />
                <span class="sr-only">{d.day}: {d.used}</span></li>))}</ol>
            {k.days.length > 1 && (
              <p class="days-axis hint" aria-hidden="true"
                style={{ width: `${k.days.length * 12 - 2}px` }}>
                <span>{k.days[k.days.length - 1].day.slice(5)}</span>
                <span>busiest {Math.max(...k.days.map((d: any) => d.used as number))
                  .toLocaleString('en-US')}</span><span>today</span></p>)}
          </section>
        );
      })}
    </main>
  );
}
