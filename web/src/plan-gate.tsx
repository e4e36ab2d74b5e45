// A page above the account's plan: one sentence saying which plan shows it, what is on it and
// how an operator moves an account, over a greyed picture of the page's empty layout; and the
// plan order the navigation uses to mark such pages.
import type { ComponentChildren } from 'preact';
import './plan-gate.css';

/**
 * Surface rank of each plan, as the service's plan table orders them (Free = Trial = Starter <
 * Trader < Pro < Whale = API). The dashboard bundle does not import the server's modules, so
 * the order is restated here; an unknown plan ranks lowest.
 */
const PLAN_RANK: Readonly<Record<string, number>> = Object.freeze({
  Free: 0, Trial: 0, Starter: 0, Trader: 1, Pro: 2, Whale: 3, API: 3,
});

/** Whether an account on `plan` reaches a page that needs `needed` (null: every plan). */
export function planAllows(plan: string | null | undefined, needed: string | null | undefined):
  boolean {
  if (!needed) return true;
  return (PLAN_RANK[plan ?? ''] ?? -1) >= (PLAN_RANK[needed] ?? Infinity);
}

/** The needed plan as the page says it: "Whale" also covers API, which has the same surface. */
export function planLabel(needed: string): string {
  return needed === 'Whale' ? 'Whale (and API)' : `${needed} and above`;
}

/** One band of a page's empty layout, top to bottom. */
export type GateBlock = 'figures' | 'chart' | 'small-charts' | 'table' | 'ladder';

function Block(props: { kind: GateBlock }) {
  switch (props.kind) {
    case 'figures':
      return <div class="gate-figures">{[0, 1, 2, 3, 4, 5].map(() => <span />)}</div>;
    case 'chart':
      return <div class="gate-chart"><svg viewBox="0 0 100 30" preserveAspectRatio="none">
        <polyline points="0,22 12,18 24,20 36,12 48,15 60,9 72,13 84,6 100,10" /></svg></div>;
    case 'small-charts':
      return <div class="gate-small">{[0, 1, 2].map(() => <div class="gate-chart" />)}</div>;
    case 'ladder':
      return <div class="gate-ladder">{[30, 55, 80, 45, 95, 60, 35, 70, 50, 25].map((w) => (
        <span style={{ width: `${w}%` }} />))}</div>;
    default:
      return <div class="gate-table">{[0, 1, 2, 3, 4, 5, 6].map(() => <span />)}</div>;
  }
}

export interface PlanGateProps {
  /** The account's plan. */
  plan: string;
  /** The lowest plan that shows the page. */
  needed: string;
  /** The page's name, its heading. */
  title: string;
  /** What the page shows, as a noun phrase: "the liquidation levels of a pair, ...". */
  what: string;
  /** The page's empty layout, top to bottom. */
  layout: GateBlock[];
  /** The page itself, rendered when the plan allows it. */
  children: ComponentChildren;
}

/** The page when `plan` reaches `needed`; otherwise the page's gate. */
export function PlanGate(props: PlanGateProps) {
  if (planAllows(props.plan, props.needed)) return <>{props.children}</>;
  return (
    <main id="main" class="plan-gate">
      <header class="page-head"><h1>{props.title}</h1>
        <span class="plan-badge">{props.needed}</span></header>
      <p class="gate-text" data-plan-gate={props.needed}>
        {props.title} is on the {planLabel(props.needed)} plan (this account is on{' '}
        {props.plan}) and shows {props.what}; an operator moves an account with{' '}
        <code>orderflow users set-plan EMAIL {props.needed}</code>.
      </p>
      <figure class="gate-layout" role="img"
        aria-label={`Empty layout of the ${props.title} page`}>
        {props.layout.map((kind) => <Block kind={kind} />)}
      </figure>
    </main>
  );
}

/** The small mark beside a navigation entry the account's plan does not reach. */
export function PlanBadge(props: { plan: string; needed: string | null | undefined }) {
  if (!props.needed || planAllows(props.plan, props.needed)) return null;
  return <span class="plan-badge" title={`Needs the ${props.needed} plan`}>
    <span class="sr-only">(needs </span>{props.needed}<span class="sr-only">)</span></span>;
}
