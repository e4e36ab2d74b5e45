// The Pair page in Debian's chromium against `orderflow serve` with the simulator and an 8-day
// warm-up (its clock started on a Monday 12:00 UTC, so a day's range crosses 00:00 UTC): round
// labelled ticks on every axis, the CVD's daily reset marked (and gone in continuous mode),
// "All" showing the 7 days of minutes kept and the hourly points before them, an untracked
// pair saying so instead of empty charts, and an unknown symbol saying so once and asking
// nothing more. Axe in both themes, screenshots in test/.screenshots/.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser as Chromium, Page } from 'puppeteer-core';
import { eventually, tempDir } from '../helpers/eventually.js';
import { binPath, startServeProcess, type ServiceProcess } from '../helpers/service-process.js';
import { axeFindings, launchChromium } from './chromium.js';

declare const document: any;

const pair = suite('pair page in chromium');
const SHOTS = new URL('../.screenshots/', import.meta.url).pathname;
const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;
let service: ServiceProcess;
let chromium: Chromium;
let page: Page;
let untracked = '';

pair.before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const dataDir = join(await tempDir(), 'data');
  mkdirSync(dataDir);
  const created = spawnSync(process.execPath, [binPath, 'users', 'create', '--email',
    'ana@example.com', '--plan', 'Whale', '--data-dir', dataDir],
  { encoding: 'utf8', input: `${PASSWORD}\n` });
  assert.is(created.status, 0, created.stderr);
  service = await startServeProcess(['--data-dir', dataDir, '--shards', '1', '--limits', 'off',
    '--clock-start', '2026-11-23T12:00:00Z'], { ORDERFLOW_WARMUP_HOURS: '192' });
  await eventually(async () => (await fetch(`${service.baseUrl}/readyz`)).status === 200,
    { timeoutMs: 300_000, intervalMs: 500, message: 'ready after the 8-day warm-up' });
  chromium = await launchChromium();
  page = await chromium.newPage();
  await page.setViewport({ width: 1280, height: 1100 });
  await page.goto(`${service.baseUrl}/`, { waitUntil: 'networkidle2' });
  await page.waitForSelector('#email');
  await page.type('#email', 'ana@example.com');
  await page.type('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForSelector('nav', { timeout: 30_000 });
});

pair.after(async () => {
  await chromium?.close();
  service?.child.kill('SIGTERM');
  await service?.exited;
});

interface Chart { title: string; x: string[]; y: string[]; resets: string[]; days: number }

/** Each chart's title, its axes' tick labels and its day marks, as the page shows them. */
function charts(): Promise<Chart[]> {
  return page.$$eval('.charts .uplot', (roots: any[]) => roots.map((root) => ({
    title: root.querySelector('.u-title')?.textContent ?? '',
    x: (root.dataset.xTicks ?? '').split('|').filter(Boolean),
    y: (root.dataset.yTicks ?? '').split('|').filter(Boolean),
    resets: [...root.querySelectorAll('.day-mark.reset span')].map((s: any) => s.textContent),
    days: root.querySelectorAll('.day-mark').length,
  })));
}

/** Opens a range and waits until the charts span it (their data read). */
async function range(label: string, spanMsMin: number): Promise<{ fromMs: number; toMs: number }> {
  const [button] = await page.$$(`xpath/.//button[normalize-space()="${label}"]`);
  await button!.click();
  return eventually(async () => {
    const span = await page.$eval('.charts', (el: any) => ({
      fromMs: Date.parse(el.dataset.from ?? ''), toMs: Date.parse(el.dataset.to ?? '') }));
    const pressed = await page.$eval(`xpath/.//button[normalize-space()="${label}"]`,
      (el: any) => el.getAttribute('aria-pressed'));
    return pressed === 'true' && span.toMs - span.fromMs >= spanMsMin ? span : null;
  }, { timeoutMs: 30_000, intervalMs: 250, message: `the ${label} range drawn` });
}

/** Axe and a screenshot in each theme, switched with the page's own button (charts redrawn). */
async function shoot(name: string): Promise<void> {
  for (const theme of ['light', 'dark']) {
    const button = await page.$(`button[aria-label="Switch to ${theme} theme"]`);
    if (button) await button.click();
    await eventually(async () => {
      const state = await page.evaluate(() => ({ theme: document.documentElement.dataset.theme,
        charts: [...document.querySelectorAll('.charts .uplot')]
          .filter((el: any) => el.dataset.yTicks).length,
        box: document.querySelector('.charts') !== null }));
      return state.theme === theme && (!state.box || state.charts === 4);
    }, { timeoutMs: 10_000, message: `${name} in the ${theme} theme` });
    assert.equal(await axeFindings(page), [], `${name} (${theme})`);
    await page.screenshot({ path: join(SHOTS, `pair-${name}-${theme}.png`), fullPage: true });
  }
}

interface Spacing { stepSeconds: number; count: number; fromMs: number; toMs: number }

/** The drawn points' spacings, as the page mirrors them. */
async function spacings(): Promise<Spacing[]> {
  const text: string = await page.$eval('.charts', (el: any) => el.dataset.spacing ?? '');
  return text.split('|').filter(Boolean).map((entry) => {
    const [step, count, from, to] = entry.split(' ');
    return { stepSeconds: Number(step), count: Number(count), fromMs: Date.parse(from!),
      toMs: Date.parse(to!) };
  });
}

pair('All: 7 days of minutes, the hours before them; every axis 3+ round ticks', async () => {
  await page.goto(`${service.baseUrl}/pair/BTC`, { waitUntil: 'networkidle2' });
  await page.waitForSelector('.charts .uplot', { timeout: 30_000 });
  const all = await range('All', 7 * DAY_MS);
  assert.ok(all.toMs - all.fromMs > 7 * DAY_MS, JSON.stringify(all));
  // Every stored point: the minutes of the last 7 days (the warm-up stored them thinned:
  // hourly, then 5-minute, then every minute) and the hourly points before them.
  // Read up to the newest drawn minute's end: the market may have moved on since the page read.
  const stored = JSON.parse(await page.evaluate(async (toMs: number) => {
    // No named inner functions: the page cannot see the test's compiler helpers.
    const { key } = JSON.parse((globalThis as any).sessionStorage.getItem('orderflow.session'));
    const bodies: any[] = await Promise.all(['interval=1h',
      `interval=1m&start=${toMs - 7 * 86_400_000}&end=${toMs}`].map(async (query) => (await fetch(
      `/api/v1/history/BTC?metrics=candle&limit=5000&${query}`,
      { headers: { authorization: `Bearer ${key}` } })).json()));
    const [hours, minutes] = bodies.map((body) => body.points.map((p: any) => Date.parse(p.t)));
    return JSON.stringify({ hours, minutes, next: bodies[1].nextCursor });
  }, all.toMs + 60_000));
  assert.is(stored.next, null, 'the stored minutes fit one page of the test\'s');
  const firstMinuteMs: number = stored.minutes[0];
  const expected = stored.hours.filter((t: number) => t < firstMinuteMs).length +
    stored.minutes.length;
  assert.is(Number(await page.$eval('.charts', (el: any) => el.dataset.points)), expected);
  assert.ok(all.toMs - firstMinuteMs > 6.5 * DAY_MS, `minutes from ${firstMinuteMs}`);
  const spaced = await spacings();
  const minutes = spaced.find((s) => s.stepSeconds === 60);
  const hours = spaced.find((s) => s.stepSeconds === 3_600);
  assert.ok(minutes && hours, JSON.stringify(spaced));
  assert.ok(all.toMs - minutes.toMs <= 60_000, JSON.stringify({ all, minutes }));
  assert.ok(hours.fromMs === all.fromMs && hours.count >= 7 * 24, JSON.stringify(hours));
  const drawn = await charts();
  assert.equal(drawn.map((c) => c.title), ['Price (USD)', 'CVD (USD)', 'VPIN',
    'Open interest (USD)']);
  for (const chart of drawn) {
    assert.ok(chart.x.length >= 3, `${chart.title} x ticks: ${chart.x}`);
    assert.ok(chart.y.length >= 3, `${chart.title} y ticks: ${chart.y}`);
    assert.ok(chart.days >= 6, `${chart.title}: ${chart.days} midnights in a week`);
  }
  const [price, cvd, vpin, oi] = drawn;
  // Round steps, each label once, in the chart's units.
  for (const chart of drawn) assert.is(new Set(chart.y).size, chart.y.length, chart.title);
  assert.ok(price!.y.every((l) => /^\d{1,3}(,\d{3})*(\.\d+)?$/.test(l)), `${price!.y}`);
  assert.ok(cvd!.y.every((l) => /^(0|-?\d+(\.\d+)?[KMB])$/.test(l)), `${cvd!.y}`);
  assert.ok(oi!.y.every((l) => /^(0|\d+(\.\d+)?[KMB])$/.test(l)), `${oi!.y}`);
  assert.ok(vpin!.y.every((l) => /^[01]?\.\d+$|^[01]$/.test(l)), `${vpin!.y}`);
  // The last midnight's label stays inside the chart: the page does not scroll sideways.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <=
    document.documentElement.clientWidth), 'no sideways scroll');
  await shoot('btc-all');
});

pair('a day crosses 00:00 UTC: the CVD reset is marked, and gone when CVD is continuous',
  async () => {
    await range('24h', DAY_MS - 60_000);
    let drawn = await charts();
    assert.ok(drawn[1]!.resets.length >= 1, JSON.stringify(drawn[1]));
    assert.ok(drawn[1]!.resets.every((text) => text === 'CVD reset 00:00 UTC'));
    assert.equal(drawn.filter((_, i) => i !== 1).map((c) => c.resets.length), [0, 0, 0]);
    for (const chart of drawn) assert.ok(chart.y.length >= 3, `${chart.title}: ${chart.y}`);
    await shoot('btc-24h');
    await page.click('#cvd-continuous');
    drawn = await eventually(async () => {
      const now = await charts();
      return now[1]!.resets.length === 0 ? now : null;
    }, { timeoutMs: 10_000, message: 'continuous CVD drawn' });
    assert.ok(drawn[1]!.days >= 1, 'the midnight still drawn as a plain line');
    await page.click('#cvd-continuous');
    // Market time is 12:00 UTC and later: the last hour has no midnight.
    await range('1h', 50 * 60_000);
    drawn = await charts();
    assert.equal(drawn.map((c) => c.days), [0, 0, 0, 0]);
    for (const chart of drawn) {
      assert.ok(chart.x.length >= 3 && chart.y.length >= 3, JSON.stringify(chart));
    }
    await shoot('btc-1h');
  });

pair('an untracked pair says so and what it shows, without empty charts', async () => {
  const screener: any = await page.evaluate(async () => {
    const { key } = JSON.parse((globalThis as any).sessionStorage.getItem('orderflow.session'));
    const r = await fetch('/api/v1/screener', { headers: { authorization: `Bearer ${key}` } });
    return r.json();
  });
  const rows = screener.pairs.filter((p: any) => !p.tracked && !p.delisted && !p.dex);
  untracked = rows.some((p: any) => p.symbol === 'BLZ') ? 'BLZ' : rows[0].symbol;
  await page.goto(`${service.baseUrl}/pair/${untracked}`, { waitUntil: 'networkidle2' });
  await page.waitForSelector('#untracked-title', { timeout: 30_000 });
  const text = await page.$eval('main', (el: any) => el.textContent);
  assert.match(text, new RegExp(`${untracked} is listed but not tracked`));
  assert.match(text, /100 tracked pairs/);
  assert.match(text, /price, 24 h\s+change and volume, open interest and funding/);
  assert.match(text, /top 100/);
  assert.is(await page.$('.charts'), null);
  assert.is(await page.$('.status.error'), null);
  await shoot('untracked');
});

pair('an unknown symbol: one clear error, and no more requests', async () => {
  const asked: string[] = [];
  const listen = (request: any) => {
    if (/\/api\/v1\/(?!usage|account)[^?]*NOPE/.test(request.url())) asked.push(request.url());
  };
  page.on('request', listen);
  await page.goto(`${service.baseUrl}/pair/NOPE`, { waitUntil: 'networkidle2' });
  await page.waitForSelector('.status.error', { timeout: 30_000 });
  assert.match(await page.$eval('.status.error', (el: any) => el.textContent),
    /^NOPE is not a listed pair/);
  // The live fallback polled every 5 s: well past that, still the one request.
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  page.off('request', listen);
  assert.equal(asked.length, 1, asked.join('\n'));
  assert.is(await page.$$eval('.status', (els: any[]) => els.length), 1);
  assert.is(await page.$('.charts'), null);
  await shoot('unknown');
});

pair.run();
