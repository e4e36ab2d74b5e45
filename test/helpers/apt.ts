// Installs a Debian package for a test or bench that needs a real binary, so CI passes on a
// fresh machine. The test runner's chunks run at once and several may want a package: every
// apt-get call here holds one lock file (flock(1), util-linux), so they queue instead of failing
// on dpkg's or the package lists' lock, and a second chunk finds the package already installed.
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const lockPath = join(tmpdir(), 'orderflow-apt.lock');

export interface AptOptions {
  /** Leave out the packages Debian only recommends (chromium pulls in a desktop otherwise). */
  readonly noRecommends?: boolean;
}

export function aptInstall(pkg: string, options: AptOptions = {}): void {
  const apt = (args: string[]) => execFileSync('flock', [lockPath, 'apt-get',
    '-o', 'DPkg::Lock::Timeout=300', ...args], {
    stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const install = ['install', '-y', ...(options.noRecommends ? ['--no-install-recommends'] : []),
    pkg];
  try {
    apt(install);
  } catch {
    // The package lists may be missing on a fresh machine: read them, then try again.
    apt(['update']);
    apt(install);
  }
}
