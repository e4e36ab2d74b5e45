// Small things a new user meets first, in a real browser (Debian's chromium) against the real
// front: the key form's Plan select starts at the account's plan, also after a key is made;
// the page's icon is served; a wide table on a phone scrolls under its first column.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser as Chromium, Page } from 'puppeteer-core';
import { launchChromium } from './chromium.js';
import { startDashboardServer, type DashboardServer } from './dashboard-server.js';
import { putMarketFixture } from './market-fixture.js';

/** The page's globals, as seen from code that runs inside it (this file has no DOM types). */
declare const document: any, localStorage: any;

const cuts = suite('dashboard paper cuts');
const SHOTS = new URL('../.screenshots/', import.meta.url).pathname;
const PASSWORD = 'correct horse battery';
let service: DashboardServer;
let chromium: Chromium;
let page: Page;

async function go(path: string): Promise<void> {
  await page.goto(service.baseUrl + path, { waitUntil: 'networkidle2' });
}

cuts.before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  service = await startDashboardServer();
  await service.createAccount('pro@example.com', PASSWORD, 'Pro');
  putMarketFixture(service.snapshots, Date.now());
  chromium = await launchChromium();
  page = await chromium.newPage();
  await page.setViewport({ width: 1280, height: 860 });
  await go('/');
  await page.waitForSelector('#email');
  await page.type('#email', 'pro@example.com');
  await page.type('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForSelector('header.top nav', { timeout: 20_000 });
});

cuts.after(async () => {
  await chromium?.close();
  await service?.close();
});

const planShown = () => page.$eval('#key-plan', (el: any) => el.value as string);

cuts('API Keys: the Plan select starts at the account plan, and again after a key', async () => {
  await go('/keys');
  await page.waitForSelector('#key-plan');
  assert.is(await planShown(), 'Pro');
  await page.type('#key-label', 'bot');
  await page.click('form.inline button[type=submit]');
  await page.waitForSelector('[data-secret]');
  await page.waitForSelector('[data-prefix]');
  assert.is(await page.$eval('tbody tr td:nth-child(3)', (el: any) => el.textContent), 'Pro');
  assert.is(await planShown(), 'Pro', 'the form, reset for the next key, starts at Pro again');
  assert.is(await page.$eval('#key-label', (el: any) => el.value), '');
  assert.ok(await page.evaluate(() => document.activeElement !== null));
});

cuts('a favicon: the page links it, and both icon paths answer 200 with an image', async () => {
  const href = await page.$eval('link[rel=icon]', (el: any) => el.getAttribute('href'));
  assert.is(href, '/favicon.svg');
  for (const path of ['/favicon.svg', '/favicon.ico']) {
    const response = await fetch(service.baseUrl + path);
    assert.is(response.status, 200, path);
    assert.match(response.headers.get('content-type') ?? '', /^image\//, path);
    assert.match(await response.text(), /^<svg /, path);
  }
});

/** Left edges (CSS px) of the first row's first two cells and of the table's scroller. */
const rowEdges = () => page.$eval('.table-wrap', (wrap: any) => {
  const cells = wrap.querySelectorAll('tbody tr:first-child td');
  return { wrap: wrap.getBoundingClientRect().left as number,
    first: cells[0].getBoundingClientRect().left as number,
    second: cells[1].getBoundingClientRect().left as number,
    scrollable: wrap.scrollWidth - wrap.clientWidth as number };
});

cuts('a phone: the market table scrolls sideways and its first column stays', async () => {
  await page.setViewport({ width: 390, height: 844 });
  await go('/market');
  await page.waitForSelector('.table-wrap tbody tr td');
  const before = await rowEdges();
  assert.ok(before.scrollable > 40, `the table is wider than the phone (${before.scrollable})`);
  await page.$eval('.table-wrap', (wrap: any) => { wrap.scrollLeft = 120; });
  const after = await rowEdges();
  assert.ok(after.second < before.second - 100, 'the other columns moved');
  assert.ok(Math.abs(after.first - before.first) < 1, `first column: ${before.first} then ` +
    `${after.first}`);
  await page.screenshot({ path: join(SHOTS, 'market-phone-scrolled.png') });
  // The other theme: the sticky cells stay opaque over the scrolled ones.
  const theme = await page.evaluate(() => document.documentElement.dataset.theme as string);
  await page.evaluate((t: string) => localStorage.setItem('orderflow.theme', t),
    theme === 'dark' ? 'light' : 'dark');
  await go('/market');
  await page.waitForSelector('.table-wrap tbody tr td');
  await page.$eval('.table-wrap', (wrap: any) => { wrap.scrollLeft = 120; });
  assert.ok(Math.abs((await rowEdges()).first - before.first) < 1, 'the other theme too');
  await page.screenshot({ path: join(SHOTS, 'market-phone-scrolled-other-theme.png') });
  await page.setViewport({ width: 1280, height: 860 });
});

cuts.run();
