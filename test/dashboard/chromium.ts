// Debian's chromium for the browser tests: installed with apt-get when missing (CI runs as
// root on a fresh machine), then launched headless through puppeteer-core.
import { existsSync, readFileSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { aptInstall } from '../helpers/apt.js';

/** The page's globals, as seen from code that runs inside it (this file has no DOM types). */
declare const document: unknown, window: { axe: { run(...args: unknown[]): Promise<any> } };
const AXE = new URL('../../node_modules/axe-core/axe.min.js', import.meta.url).pathname;

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function chromiumPath(): string {
  const found = CANDIDATES.find((path) => existsSync(path));
  if (found !== undefined) return found;
  aptInstall('chromium', { noRecommends: true });
  const installed = CANDIDATES.find((path) => existsSync(path));
  if (installed === undefined) {
    throw new Error('apt-get installed chromium, yet no binary is there');
  }
  return installed;
}

export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath(), headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run'],
  });
}

/** axe-core's serious and critical findings on the page as it is now (none expected). */
export async function axeFindings(page: Page): Promise<string[]> {
  // Evaluated through the debugger protocol, which the page's CSP does not govern.
  await page.evaluate(readFileSync(AXE, 'utf8'));
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v: any) => ['serious', 'critical'].includes(v.impact))
      .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}
