// The Pair page's footprint and volume profile in Debian's chromium against the real service
// (`orderflow serve`, simulator at 20x, real shards, store and front): the footprint's cells drawn
// with "bid x ask" numbers, the focused bar's point of control outlined on the canvas, the arrow
// keys moving the bar cursor (its summary and table follow), the profile beside it, axe in both
// themes with screenshots (test/.screenshots/), and a Pro account told which plan shows it.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser as Chromium, Page } from 'puppeteer-core';
import { tempDir } from '../helpers/eventually.js';
import { binPath, startServeProcess, type ServiceProcess } from '../helpers/service-process.js';
import { axeFindings, launchChromium } from './chromium.js';

declare const document: any, localStorage: any, sessionStorage: any, getComputedStyle: any;

const fp = suite('footprint in chromium');
const SHOTS = new URL('../.screenshots/', import.meta.url).pathname;
const PASSWORD = 'correct horse battery';
let service: ServiceProcess;
let dataDir: string;
let chromium: Chromium;
let page: Page;

function createAccount(email: string, plan: string): void {
  const made = spawnSync(process.execPath, [binPath, 'users', 'create', '--email', email, '--plan',
    plan, '--data-dir', dataDir], { encoding: 'utf8', input: `${PASSWORD}\n` });
  assert.is(made.status, 0, made.stderr);
}

async function signIn(email: string): Promise<void> {
  await page.evaluate(() => sessionStorage.clear()).catch(() => {});
  const client = await page.createCDPSession();
  await client.send('Network.clearBrowserCookies');
  await page.goto(`${service.baseUrl}/signin`, { waitUntil: 'networkidle2' });
  await page.waitForSelector('#email');
  await page.type('#email', email);
  await page.type('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForSelector('nav', { timeout: 30_000 });
}

async function pairPage(theme = 'dark'): Promise<void> {
  await page.evaluate((t) => localStorage.setItem('orderflow.theme', t), theme);
  await page.goto(`${service.baseUrl}/pair/BTC`, { waitUntil: 'networkidle2' });
  await page.waitForSelector('#fp-title', { timeout: 30_000 });
}

/** The footprint canvas once it has drawn numbers, and what it says it drew. */
async function drawn(): Promise<{ cells: number; numberCells: number; pocBox: number[] }> {
  await page.waitForFunction(() => Number(document.querySelector('canvas.fp-canvas')?.dataset
    .numberCells ?? 0) > 0, { timeout: 120_000, polling: 500 });
  // Every canvas drawn at its shown size (the profile's too), not a frame of an earlier layout.
  await page.waitForFunction(() => [...document.querySelectorAll('.fp canvas')].every((c: any) =>
    c.width === Math.round(c.clientWidth * (globalThis as any).devicePixelRatio)),
  { timeout: 30_000, polling: 200 });
  return page.$eval('canvas.fp-canvas', (c: any) => ({ cells: Number(c.dataset.cells),
    numberCells: Number(c.dataset.numberCells),
    pocBox: c.dataset.pocBox ? c.dataset.pocBox.split(',').map(Number) : [] }));
}

fp.before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dataDir = join(await tempDir('orderflow-fp-'), 'data');
  mkdirSync(dataDir);
  service = await startServeProcess(['--data-dir', dataDir, '--feed', 'sim', '--speed', '20',
    '--shards', '1'], { ORDERFLOW_WARMUP_HOURS: '2' });
  createAccount('whale@example.com', 'Whale');
  createAccount('pro@example.com', 'Pro');
  chromium = await launchChromium();
  page = await chromium.newPage();
  await page.setViewport({ width: 1280, height: 900 });
});

fp.after(async () => {
  await chromium?.close();
  service?.child.kill('SIGTERM');
  await service?.exited;
});

fp('Whale: the footprint draws its cells with numbers; the bar\'s POC is outlined', async () => {
  await signIn('whale@example.com');
  await pairPage();
  const { cells, numberCells, pocBox } = await drawn();
  assert.ok(cells >= numberCells && numberCells > 0, `${cells} cells, ${numberCells} numbers`);
  assert.is(pocBox.length, 4, 'the focused bar has a point of control');
  // The outline's top edge is the theme's --warn colour on the canvas.
  const edge = await page.$eval('canvas.fp-canvas', (c: any, box: number[]) => {
    const ratio = c.width / c.clientWidth;
    const [x, y, w] = box;
    const pixel = c.getContext('2d').getImageData(Math.round((x + w / 2) * ratio),
      Math.round(y * ratio), 1, 1).data;
    const warn = getComputedStyle(document.documentElement).getPropertyValue('--warn').trim();
    return { pixel: [...pixel].slice(0, 3), warn };
  }, pocBox);
  const warn = [1, 3, 5].map((i) => parseInt(edge.warn.slice(i, i + 2), 16));
  assert.ok(edge.pixel.every((v: number, i: number) => Math.abs(v - warn[i]) <= 40),
    `outline ${edge.pixel} vs ${edge.warn}`);
  // The profile beside it, and its figures in words.
  await page.waitForSelector('canvas.vp-canvas', { timeout: 60_000 });
  assert.match(await page.$eval('[data-profile]', (p: any) => p.textContent),
    /Point of control [\d,.]+, value area [\d,.]+ to [\d,.]+/);
});

fp('keyboard: the frame takes focus and the arrows move the bar cursor', async () => {
  const before = await page.$eval('.fp-frame', (el: any) => el.dataset.cursor);
  const caption = () => page.$eval('[data-fp-table] caption', (c: any) => c.textContent);
  const summary = () => page.$eval('#fp-summary', (p: any) => p.textContent);
  const [captionBefore, summaryBefore] = [await caption(), await summary()];
  await page.focus('.fp-frame');
  assert.is(await page.evaluate(() => document.activeElement?.className), 'fp-frame');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const after = await page.$eval('.fp-frame', (el: any) => el.dataset.cursor);
  assert.ok(Date.parse(after) < Date.parse(before), `${after} before ${before}`);
  assert.is.not(await caption(), captionBefore);
  assert.is.not(await summary(), summaryBefore);
  assert.match(await summary(), /^Bar \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  const rows = await page.$$eval('[data-fp-table] tbody tr', (trs: any[]) => trs.length);
  assert.ok(rows > 0 || /built from candles/.test(await summary()), 'the bar\'s levels listed');
  await page.keyboard.press('End');
  assert.is(await page.$eval('.fp-frame', (el: any) => el.dataset.cursor) >= before, true);
});

fp('axe in both themes; screenshots of the section', async () => {
  for (const theme of ['dark', 'light']) {
    await pairPage(theme);
    await drawn();
    assert.equal(await axeFindings(page), [], theme);
    const section = await page.$('section.fp-section');
    await section!.screenshot({ path: join(SHOTS, `footprint-${theme}.png`) });
  }
});

fp('Pro: one sentence says the Whale plan shows it; nothing is asked of the API', async () => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/v1\/(footprint|volume-profile)\//.test(request.url())) asked.push(request.url());
  });
  await signIn('pro@example.com');
  await pairPage();
  const gate = await page.$eval('[data-plan-gate]', (p: any) => p.textContent);
  assert.match(gate, /on the Whale \(and API\) plan; this account is on Pro\./);
  assert.is(await page.$('canvas.fp-canvas'), null);
  assert.equal(asked, []);
  assert.equal(await axeFindings(page), []);
});

fp.run();
