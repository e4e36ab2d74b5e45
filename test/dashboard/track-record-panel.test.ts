// The Signals page's track record panel in Debian's chromium, against the real front reading a
// real lmdb signal store: the empty state while nothing was evaluated, then every letter with
// its intervals drawn against the baseline, a grade with too few outcomes saying so, the
// information coefficient, the multiple-comparisons note, axe in both themes and screenshots
// (desktop and phone, test/.screenshots/); a Free account sees the page's plan gate and asks
// the API nothing, a Trader account the live signals with the track record's Pro gate.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser as Chromium, Page } from 'puppeteer-core';
import { interval, percent, signedR } from '../../web/src/track-record.js';
import { axeFindings, launchChromium } from './chromium.js';
import { startDashboardServer, type DashboardServer } from './dashboard-server.js';
import { putMarketFixture } from './market-fixture.js';
import { GRADE_PLAN, storeEvaluated, storePending } from './track-record-fixture.js';

declare const document: any, localStorage: any, sessionStorage: any;

const panel = suite('track record panel in chromium');
const SHOTS = new URL('../.screenshots/', import.meta.url).pathname;
const PASSWORD = 'correct horse battery';
let service: DashboardServer;
let chromium: Chromium;
let page: Page;

async function signIn(email: string): Promise<void> {
  await page.goto(`${service.baseUrl}/`, { waitUntil: 'networkidle2' });
  await page.waitForSelector('#email');
  await page.type('#email', email);
  await page.type('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForSelector('nav', { timeout: 20_000 });
}

async function signals(theme = 'dark'): Promise<void> {
  await page.evaluate((t) => localStorage.setItem('orderflow.theme', t), theme);
  await page.goto(`${service.baseUrl}/signals`, { waitUntil: 'networkidle2' });
  await page.waitForSelector('#track-title');
}

/** The cells' text of the row of `grade`. */
function cells(grade: string): Promise<string[]> {
  return page.$eval(`tr[data-grade="${grade}"]`, (row: any) =>
    [...row.children].map((cell: any) => (cell.textContent ?? '').trim()));
}

panel.before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  service = await startDashboardServer({ trackRecord: true });
  putMarketFixture(service.snapshots, Date.now());
  await service.createAccount('ana@example.com', PASSWORD, 'Whale');
  await service.createAccount('fred@example.com', PASSWORD, 'Free');
  await service.createAccount('tess@example.com', PASSWORD, 'Trader');
  chromium = await launchChromium();
  page = await chromium.newPage();
  await page.setViewport({ width: 1280, height: 900 });
});

panel.after(async () => {
  await chromium?.close();
  await service?.close();
});

panel('no outcome yet: the panel says so and how many signals wait, no table', async () => {
  await storePending(service.signals!, Date.now(), 3);
  await signIn('ana@example.com');
  await signals();
  await page.waitForSelector('section .status.empty', { timeout: 60_000 });
  assert.match(await page.$eval('section .status.empty', (el: any) => el.textContent),
    /^No outcomes yet: .*4 hours.*3 signals of the last 30 days are waiting\.$/s);
  assert.is(await page.$('.track-table'), null);
  assert.is(await page.$('main .status.error'), null);
  assert.equal(await axeFindings(page), []);
});

panel('letters with intervals against the baseline, too few said, IC and the note', async () => {
  const evaluated = await storeEvaluated(service.signals!, Date.now());
  await signals();
  await page.waitForSelector('.track-table', { timeout: 60_000 });
  const answer: any = await page.evaluate(async () => {
    const { key } = JSON.parse(sessionStorage.getItem('orderflow.session'));
    const response = await fetch('/api/v1/signals/performance?window=30d&groupBy=grade',
      { headers: { authorization: `Bearer ${key}` } });
    return response.json();
  });
  assert.equal(await page.$$eval('.track-table tbody tr', (rows: any[]) =>
    rows.map((r) => r.getAttribute('data-grade'))), ['A+', 'A', 'B', 'C', 'D']);
  // Enough outcomes: each figure with its interval, the bar drawn inside the scale.
  for (const grade of ['A', 'B', 'C'] as const) {
    const group = answer.groups.find((g: any) => g.group === grade);
    const row = await cells(grade);
    assert.equal(row.slice(0, 4), [grade, String(GRADE_PLAN[grade].evaluated),
      signedR(group.expectancyR),
      interval(group.expectancyRLow, group.expectancyRHigh, signedR)], grade);
    assert.match(row[2], /^[+-]\d\.\d\d$/);
    assert.match(row[3], /^\[[+-]\d\.\d\d, [+-]\d\.\d\d\]$/);
    assert.equal(row.slice(5), [percent(group.hitRate),
      interval(group.hitRateLow, group.hitRateHigh, percent),
      signedR(group.baselineRandomR), signedR(group.baselineTrendR),
      signedR(group.edgeR), interval(group.edgeRLow, group.edgeRHigh, signedR),
      group.edgeSignificant ? 'yes' : 'no'], grade);
    const bar = await page.$eval(`tr[data-grade="${grade}"] .ivl`, (el: any) => ({
      label: el.getAttribute('aria-label'), role: el.getAttribute('role'),
      dot: parseFloat(el.querySelector('.ivl-dot').style.left),
      low: parseFloat(el.querySelector('.ivl-range').style.left),
      width: parseFloat(el.querySelector('.ivl-range').style.width),
      ref: parseFloat(el.querySelector('.ivl-ref').style.left) }));
    assert.is(bar.role, 'img');
    assert.match(bar.label, new RegExp(`^${grade}: expectancy [+-]\\d\\.\\d\\d R, 95 % interval`));
    assert.ok(bar.low > 0 && bar.low <= bar.dot && bar.dot <= bar.low + bar.width &&
      bar.low + bar.width < 100, JSON.stringify(bar));
    assert.ok(bar.ref > 0 && bar.ref < 100, JSON.stringify(bar));
  }
  // Too few: the count and the minimum instead of a number; none at all: said too.
  assert.equal((await cells('A+')).slice(1), ['6', 'too few: 6 of 30']);
  assert.equal((await cells('D')).slice(1), ['0 of 3', 'no outcomes yet']);
  assert.equal(await page.$$('tr[data-grade="A+"] .ivl'), []);
  const ic = answer.informationCoefficient;
  assert.is(ic.n, evaluated);
  assert.ok(ic.rho > 0, `rho ${ic.rho}`);
  assert.is(await page.$eval('[data-ic]', (el: any) => el.textContent.replace(/\s+/g, ' ')),
    `${signedR(ic.rho)} ${interval(ic.low, ic.high, signedR)} n = ${evaluated}`);
  const order = answer.calibration.lettersInOrder;
  assert.match(await page.$eval('[data-order]', (el: any) => el.textContent),
    order ? /^yes, over 3 grades$/ : /^no: a lower letter did better \(3 grades\)$/);
  const m = answer.multipleComparisons;
  assert.ok(m.groupsCompared >= 3, JSON.stringify(m));
  assert.is(await page.$eval('[data-comparisons]',
    (el: any) => el.textContent.replace(/\u00a0/g, ' ')),
    `${m.groupsCompared} groups compared with the random baseline: ` +
    `${m.significantBeforeCorrection} at p < 0.05 (${m.expectedFalsePositives.toFixed(2)} ` +
    `expected by chance alone), ${m.significantAfterCorrection} after Benjamini-Hochberg at ` +
    'a 5 % false discovery rate.');
  assert.match(await page.$eval('.track-legend', (el: any) => el.textContent),
    /A\+, D: fewer than 30 outcomes, not compared\./);
});

panel('axe in both themes; screenshots desktop and phone', async () => {
  for (const [width, height, name] of [[1280, 900, ''], [390, 844, '-phone']] as const) {
    await page.setViewport({ width, height });
    for (const theme of ['dark', 'light']) {
      await signals(theme);
      await page.waitForSelector('.track-table', { timeout: 60_000 });
      assert.equal(await axeFindings(page), [], `${theme}${name}`);
      const section = await page.$('section[aria-labelledby="track-title"]');
      await section!.screenshot({ path: join(SHOTS, `track-record-${theme}${name}.png`) });
    }
  }
  await page.setViewport({ width: 1280, height: 900 });
});

/** The paths under /api/v1/signals the page asks for while `act` runs. */
async function signalRequests(act: () => Promise<void>): Promise<string[]> {
  const asked: string[] = [];
  const listen = (request: { url(): string }) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/v1/signals')) asked.push(url.pathname);
  };
  page.on('request', listen);
  try {
    await act();
  } finally {
    page.off('request', listen);
  }
  return asked;
}

async function signOut(): Promise<void> {
  await page.evaluate(() => sessionStorage.clear());
  const client = await page.createCDPSession();
  await client.send('Network.clearBrowserCookies');
}

panel('a Free account: the gate names the Trader plan, no API request, no error', async () => {
  await signOut();
  await signIn('fred@example.com');
  const asked = await signalRequests(async () => {
    await page.evaluate((t) => localStorage.setItem('orderflow.theme', t), 'dark');
    await page.goto(`${service.baseUrl}/signals`, { waitUntil: 'networkidle2' });
    await page.waitForSelector('[data-plan-gate]');
  });
  assert.equal(asked, []);
  assert.is(await page.$eval('[data-plan-gate]', (el: any) => el.getAttribute('data-plan-gate')),
    'Trader');
  assert.match(await page.$eval('[data-plan-gate]', (el: any) => el.textContent),
    /^Signals is on the Trader and above plan \(this account is on Free\).*set-plan EMAIL Trader/);
  assert.is(await page.$('.status.error'), null);
  assert.is(await page.$('.track-table'), null);
  assert.is(await page.$eval('nav a[href="/signals"] .plan-badge', (el: any) => el.textContent),
    '(needs Trader)');
  assert.equal(await axeFindings(page), []);
  await page.screenshot({ path: join(SHOTS, 'signals-free-gate.png') });
});

panel('a Trader account: live signals, and the track record names the Pro plan', async () => {
  await signOut();
  await signIn('tess@example.com');
  const asked = await signalRequests(async () => {
    await page.goto(`${service.baseUrl}/signals`, { waitUntil: 'networkidle2' });
    await page.waitForSelector('section [data-plan-gate]');
  });
  assert.equal([...new Set(asked)], ['/api/v1/signals']);
  assert.is(await page.$eval('section [data-plan-gate]',
    (el: any) => el.getAttribute('data-plan-gate')), 'Pro');
  assert.match(await page.$eval('section [data-plan-gate]', (el: any) => el.textContent),
    /is on the Pro and above plan; this account is on Trader\./);
  assert.is(await page.$('.status.error'), null);
  assert.is(await page.$('nav a[href="/signals"] .plan-badge'), null);
  assert.equal(await axeFindings(page), []);
});

panel.run();
