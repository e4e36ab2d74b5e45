// Where the recorded venue files live inside the repository (test/fixtures/venue, with their
// provenance in its README): tests and benches read only these, never a folder beside the checkout.
import { fileURLToPath } from 'node:url';

const venueDir = new URL('../fixtures/venue/', import.meta.url);

/** Absolute path of one recorded venue file, e.g. `hl_ws_btc_raw_2025-01-26.txt`. */
export function venueFixture(file: string): string {
  return fileURLToPath(new URL(file, venueDir));
}

/** Absolute path of the recorded venue folder. */
export const venueFixtureDir = fileURLToPath(venueDir);
