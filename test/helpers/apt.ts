// Installs a Debian package for a test that needs a real binary, so CI passes on a fresh machine.
import { execFileSync } from 'node:child_process';

export function aptInstall(pkg: string): void {
  const apt = (args: string[]) => execFileSync('apt-get',
    ['-o', 'DPkg::Lock::Timeout=300', ...args], { stdio: 'ignore', timeout: 600_000 });
  try {
    apt(['install', '-y', pkg]);
  } catch {
    apt(['update']);
    apt(['install', '-y', pkg]);
  }
}
