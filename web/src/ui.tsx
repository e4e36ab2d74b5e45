// Shared pieces: navigation, the sortable table, status lines and the polling hook.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';
import { nextPollMs } from './pace.js';

export function navigate(path: string): void {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function Link(props: { href: string; children: ComponentChildren; current?: boolean }) {
  return (
    <a href={props.href} aria-current={props.current ? 'page' : undefined} onClick={(event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      navigate(props.href);
    }}>{props.children}</a>
  );
}

export function Status(props: { error?: string | null; loading?: boolean; empty?: string }) {
  if (props.error) return <p class="status error" role="alert">{props.error}</p>;
  if (props.loading) return <p class="status" aria-live="polite">Loading…</p>;
  if (props.empty) return <p class="status empty">{props.empty}</p>;
  return null;
}

export interface Column<T> {
  key: string;
  label: string;
  value: (row: T) => number | string | null;
  render?: (row: T) => ComponentChildren;
  numeric?: boolean;
}

export function SortTable<T>(props: { rows: T[]; columns: Column<T>[]; rowKey: (row: T) => string;
  initial?: string; caption: string }) {
  const [sort, setSort] = useState({ key: props.initial ?? props.columns[0].key, desc: true });
  const column = props.columns.find((c) => c.key === sort.key) ?? props.columns[0];
  const rows = [...props.rows].sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    const order = x === null ? 1 : y === null ? -1 : x < y ? -1 : x > y ? 1 : 0;
    return sort.desc ? -order : order;
  });
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">{props.caption}</caption>
        <thead><tr>{props.columns.map((c) => (
          <th scope="col" class={c.numeric ? 'num' : ''}
            aria-sort={c.key === sort.key ? (sort.desc ? 'descending' : 'ascending') : undefined}>
            <button type="button" data-sort={c.key} onClick={() =>
              setSort({ key: c.key, desc: c.key === sort.key ? !sort.desc : true })}>
              {c.label}{c.key === sort.key ? (sort.desc ? ' ▼' : ' ▲') : ''}
            </button>
          </th>))}</tr></thead>
        <tbody>{rows.map((row) => (
          <tr key={props.rowKey(row)}>{props.columns.map((c) => (
            <td class={c.numeric ? 'num' : ''}>{c.render ? c.render(row) : c.value(row)}</td>))}
          </tr>))}</tbody>
      </table>
    </div>
  );
}

/** Whether an answer will not change by asking again (bad input, unknown, not on the plan). */
export function isFinalProblem(error: unknown): boolean {
  const status = error instanceof ApiError ? error.problem.status : 0;
  return status >= 400 && status < 500 && status !== 401 && status !== 429;
}

/** How long a 429 asks to wait (its problem's retryAfterSeconds), 0 for any other outcome. */
function retryAfterMs(error: unknown): number {
  const seconds = error instanceof ApiError ? (error.problem as any).retryAfterSeconds : 0;
  return typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : 0;
}

/**
 * Calls load now and again while mounted, every periodMs or slower when the daily quota left
 * would not last until its reset (pace.ts) or a 429 asks to wait; keeps the last good value and
 * the error, and stops on a final answer when `stopOnFinal` (an unknown symbol stays unknown).
 * `nextAtMs` is when the next call goes out (null once stopped).
 */
export function usePoll<T>(load: () => Promise<T>, periodMs: number, deps: unknown[] = [],
  options: { stopOnFinal?: boolean } = {}) {
  const [state, setState] = useState<{ value: T | null; error: string | null; nextMs: number;
    nextAtMs: number | null; problem: unknown }>(
    { value: null, error: null, nextMs: periodMs, nextAtMs: null, problem: null });
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    let timer = 0;
    const tick = async () => {
      let next: { value?: T; error: string | null; problem: unknown };
      try {
        next = { value: await load(), error: null, problem: null };
      } catch (error) {
        next = { error: (error as Error).message, problem: error };
      }
      const nextMs = Math.max(await nextPollMs(periodMs), retryAfterMs(next.problem));
      if (!alive.current) return;
      const stop = options.stopOnFinal === true && isFinalProblem(next.problem);
      setState((s) => ({ value: stop ? null : next.value ?? s.value, error: next.error, nextMs,
        nextAtMs: stop ? null : Date.now() + nextMs, problem: next.problem }));
      if (!stop) timer = window.setTimeout(tick, nextMs);
    };
    void tick();
    return () => { alive.current = false; clearTimeout(timer); };
  }, deps);
  return state;
}

/** "Refreshes every 10 s", or longer with the reason, for the page header. */
export function Cadence(props: { nextMs: number; minMs: number }) {
  const seconds = Math.round(props.nextMs / 1000);
  const text = seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  return (
    <span class="hint" aria-live="off">Refreshes every {text}
      {props.nextMs > props.minMs ? ' (paced to last the daily quota until its reset)' : ''}
    </span>
  );
}

export function CopyButton(props: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button type="button" onClick={async () => {
      await navigator.clipboard?.writeText(props.text).catch(() => {});
      setDone(true);
    }}>{done ? 'Copied' : props.label ?? 'Copy'}</button>
  );
}

export function Secret(props: { label: string; value: string; note: string }) {
  return (
    <div class="secret" role="status">
      <p><strong>{props.label}</strong> — {props.note}</p>
      <code data-secret>{props.value}</code> <CopyButton text={props.value} />
    </div>
  );
}
