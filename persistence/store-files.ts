// The store directory before lmdb opens it: created when allowed, and checked, because lmdb
// crashes the process (not an exception) on some malformed layouts.
import {
  accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readSync, statSync,
} from 'node:fs';
import { join } from 'node:path';
import { storeErrors } from './errors.js';

export interface DirectoryOptions {
  readonly dataDir: string;
  readonly readOnly?: boolean;
  readonly createDataDir?: boolean;
  readonly createStore?: boolean;
}

/** Creates what the options allow to create and refuses layouts lmdb cannot open safely. */
export function prepareStoreDirectory(options: DirectoryOptions, path: string): void {
  const { dataDir } = options;
  if (!existsSync(dataDir)) {
    if (options.createDataDir === false || options.readOnly) {
      throw storeErrors.dataDirMissing(dataDir);
    }
    mkdirSync(dataDir, { recursive: true });
  }
  if (!statSync(dataDir).isDirectory()) throw storeErrors.dataDirMissing(dataDir);
  if (!existsSync(path) && (options.readOnly || options.createStore === false)) {
    throw storeErrors.storeMissing(dataDir, path);
  }
  if (!existsSync(path)) mkdirSync(path);
  checkStoreFiles(path, options.readOnly ?? false);
}

/**
 * lmdb crashes the process (not an exception) on some malformed layouts, such as a directory
 * where its lock file should be, so the layout and permissions are checked before it opens.
 */
function checkStoreFiles(path: string, readOnly: boolean): void {
  if (!statSync(path).isDirectory()) {
    throw storeErrors.openFailed(path, new Error('expected a directory (was a file)'));
  }
  for (const name of ['data.mdb', 'lock.mdb']) {
    const file = join(path, name);
    if (existsSync(file) && !statSync(file).isFile()) {
      throw storeErrors.openFailed(path, new Error(`expected ${name} to be a file (was not)`));
    }
  }
  checkDataFileMagic(join(path, 'data.mdb'));
  try {
    accessSync(path, readOnly ? constants.R_OK : constants.R_OK | constants.W_OK);
  } catch (error) {
    throw storeErrors.openFailed(path, error);
  }
}

/** The lmdb meta page magic (0xBEEFC0DE, little-endian) at byte 24 of data.mdb. */
const lmdbMagicOffset = 24;
const lmdbMagic = 0xbeefc0de;

function checkDataFileMagic(file: string): void {
  if (!existsSync(file) || statSync(file).size === 0) return;
  const header = new Uint8Array(lmdbMagicOffset + 4);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  const magic = new DataView(header.buffer).getUint32(lmdbMagicOffset, true);
  if (magic !== lmdbMagic) {
    throw storeErrors.openFailed(file, new Error('expected an lmdb data file (was not one); ' +
      'restore a backup (docs/store.md)'));
  }
}
