// The dashboard shell: who is signed in, the navigation, the theme switch and the page routes
// (/, /market, /pair/{symbol}, /pair/{symbol}/deep, /signals, /smart-money, /wallets,
// /wallets/{address}, /funding, /keys, /alerts, /usage, /signin, /chart).
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { account, ApiError, forget, remember } from './api.js';
import { Alerts } from './pages/alerts.js';
import { DeepView } from './pages/deep-view.js';
import { Funding } from './pages/funding.js';
import { Keys } from './pages/keys.js';
import { Liquidations } from './pages/liquidations.js';
import { Market } from './pages/market.js';
import { Pair } from './pages/pair.js';
import { Signals } from './pages/signals.js';
import { SignIn } from './pages/signin.js';
import { SmartMoney } from './pages/smart-money.js';
import { Usage } from './pages/usage.js';
import { WalletDetail, Wallets } from './pages/wallets.js';
import { PlanBadge } from './plan-gate.js';
import { Link, navigate } from './ui.js';

/** href, label and the lowest plan whose data the page shows (null: every plan). */
const NAV: readonly (readonly [string, string, string | null])[] = [
  ['/market', 'Market', null], ['/signals', 'Signals', 'Trader'],
  ['/smart-money', 'Smart money', 'Pro'], ['/wallets', 'Wallets', 'Whale'],
  ['/funding', 'Funding arb', 'Whale'], ['/liquidations', 'Liquidations', 'Whale'],
  ['/keys', 'API Keys', null], ['/alerts', 'Alerts', null],
  ['/usage', 'Usage', null]];

function initialTheme(): string {
  return localStorage.getItem('orderflow.theme') ??
    (matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark');
}

function applyTheme(theme: string): void {
  document.documentElement.dataset.theme = theme;
  localStorage.setItem('orderflow.theme', theme);
}

/** chart_url of an entry signal: /chart?symbol=S&timeframe=T&signal=ID&at=ISO -> its Pair page. */
function chartRedirect(): string | null {
  if (location.pathname !== '/chart') return null;
  const q = new URLSearchParams(location.search);
  const symbol = q.get('symbol') ?? '';
  const at = q.get('at');
  return `/pair/${encodeURIComponent(symbol)}${at ? `?at=${encodeURIComponent(at)}` : ''}`;
}

function App() {
  const [path, setPath] = useState(location.pathname);
  const [me, setMe] = useState<any>(undefined);
  const [theme, setTheme] = useState(initialTheme);
  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => {
    const onPop = () => setPath(location.pathname);
    addEventListener('popstate', onPop);
    const redirect = chartRedirect();
    if (redirect) history.replaceState(null, '', redirect);
    setPath(location.pathname);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const loadMe = () => account('GET', 'session').then((body) => {
    remember(body.csrfToken, JSON.parse(sessionStorage.getItem('orderflow.session') ?? '{}').key
      ?? null);
    setMe(body.account);
  }, (error) => {
    if (error instanceof ApiError && error.problem.status === 401) setMe(null);
    else setMe(null);
  });
  useEffect(() => { void loadMe(); }, []);
  useEffect(() => {
    const title = NAV.find(([href]) => href === path)?.[1] ??
      (path.startsWith('/pair/')
        ? decodeURIComponent(path.slice(6)).replace(/\/deep$/, ' deep view')
        : path.startsWith('/wallets/') ? 'Wallet'
        : path.startsWith('/liquidations/')
          ? `${decodeURIComponent(path.slice(14))} liquidations` : 'Sign in');
    document.title = `${title} · orderflow`;
  }, [path]);
  if (me === undefined) return <p class="status">Loading…</p>;
  if (me === null) {
    return <SignIn onSignedIn={() => {
      if (path === '/signin' || path === '/') navigate('/market');
      void loadMe();
    }} />;
  }
  const signOut = async () => {
    await account('DELETE', 'session').catch(() => {});
    forget();
    setMe(null);
    navigate('/signin');
  };
  const q = new URLSearchParams(location.search);
  let page;
  if (path.startsWith('/pair/') && path.endsWith('/deep')) {
    page = <DeepView symbol={decodeURIComponent(path.slice(6, -5))} plan={me.plan} />;
  } else if (path.startsWith('/pair/')) {
    page = <Pair symbol={decodeURIComponent(path.slice(6))} at={q.get('at')} plan={me.plan} />;
  } else if (path === '/signals') page = <Signals plan={me.plan} />;
  else if (path === '/smart-money') {
    page = <SmartMoney plan={me.plan} symbol={q.get('symbol')} />;
  } else if (path === '/wallets') page = <Wallets plan={me.plan} />;
  else if (path.startsWith('/wallets/')) {
    page = <WalletDetail plan={me.plan} address={decodeURIComponent(path.slice(9))} />;
  } else if (path === '/funding') page = <Funding plan={me.plan} />;
  else if (path === '/liquidations' || path.startsWith('/liquidations/')) {
    page = <Liquidations plan={me.plan} symbol={decodeURIComponent(path.slice(14))} />;
  }
  else if (path === '/keys') page = <Keys plan={me.plan} />;
  else if (path === '/alerts') page = <Alerts />;
  else if (path === '/usage') page = <Usage />;
  else page = <Market />;
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <span class="brand">orderflow</span>
        <nav aria-label="Main"><ul>{NAV.map(([href, label, needed]) => (
          <li><Link href={href} current={path === href || path.startsWith(`${href}/`) ||
            (href === '/market' && (path === '/' || path.startsWith('/pair/')))}>{label}
            <PlanBadge plan={me.plan} needed={needed} /></Link></li>
        ))}</ul></nav>
        <div class="who">
          <button type="button" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
            aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
            {theme === 'dark' ? 'Light' : 'Dark'}</button>
          <span class="email">{me.email} · {me.plan}</span>
          <button type="button" onClick={signOut}>Sign out</button>
        </div>
      </header>
      {page}
    </>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
