// Debian's chromium for the browser tests: installed with apt-get when missing (CI runs as
// root on a fresh machine), then launched headless through puppeteer-core.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function chromiumPath(): string {
  const found = CANDIDATES.find((path) => existsSync(path));
  if (found !== undefined) return found;
  const apt = (args: string[]) => execFileSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  try {
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  } catch {
    // The package lists may be missing on a fresh machine: read them, then try again.
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  }
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
