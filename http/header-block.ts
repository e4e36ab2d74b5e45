// Several response headers written with one res.writeHeader call: the hot routes' headers are
// fixed per snapshot version (or per config), so they are joined once, not written one by one.
// PrebuiltHeaders holds a payload's blocks, joined with a fixed CORS block on first use.
//
// Why: every writeHeader crosses from JS into uWS's C++ (and converts its strings); a feed
// answer had ~10 of them. uWS writes `name: value\r\n` as given, so a value made of
// `\r\n`-joined lines puts each line on the wire as its own header. Only values built by this
// service go in a block, and each part is checked for CR/LF here, so no request data can
// inject a header.

/** The arguments of one writeHeader call that writes every header of the list. */
export type HeaderBlock = readonly [name: string, value: string];

const LINE_BREAK = /[\r\n]/;

/** Joins `headers` (at least one) into one block; throws on a CR or LF in any part. */
export function headerBlock(headers: readonly (readonly [string, string])[]): HeaderBlock {
  if (headers.length === 0) throw new RangeError('a header block needs at least one header');
  for (const [name, value] of headers) {
    if (LINE_BREAK.test(name) || LINE_BREAK.test(value)) {
      throw new TypeError(`header ${JSON.stringify(name)} must not hold CR or LF ` +
        `(was ${JSON.stringify(value)})`);
    }
  }
  const [first, ...rest] = headers;
  return [first![0], [first![1], ...rest.map(([name, value]) => `${name}: ${value}`)]
    .join('\r\n')];
}

/** Both blocks' headers, `first`'s then `second`'s, as one block. */
export function joinBlocks(first: HeaderBlock, second: HeaderBlock): HeaderBlock {
  return [first[0], `${first[1]}\r\n${second[0]}: ${second[1]}`];
}

/**
 * A block as bytes, for the answers of every poll: uWS copies a Buffer as it is, where it
 * converts a string to UTF-8 on every call, a visible share of a small answer's cost. Encoded
 * once, when the block is first joined.
 */
export type EncodedBlock = readonly [name: Buffer, value: Buffer];

export function encodeBlock(block: HeaderBlock): EncodedBlock {
  return [Buffer.from(block[0]), Buffer.from(block[1])];
}

/** A payload's own headers joined once, and with a fixed CORS block on first use (as bytes). */
export class PrebuiltHeaders {
  // One slot: a server has one CORS config, so each payload is joined with it once; another
  // server sharing the payload with another config only costs a re-join.
  #cors: HeaderBlock | undefined;
  #answerWithCors: EncodedBlock | undefined;
  #notModifiedWithCors: EncodedBlock | undefined;

  /**
   * `answer`: Content-Type, the validators and the payload's `headers`, every own header of a
   * 200. `notModified`: the validators, every own header of a 304.
   */
  constructor(readonly answer: HeaderBlock, readonly notModified: HeaderBlock) {}

  answerWith(cors: HeaderBlock): EncodedBlock {
    if (this.#cors !== cors) this.#join(cors);
    return this.#answerWithCors!;
  }

  notModifiedWith(cors: HeaderBlock): EncodedBlock {
    if (this.#cors !== cors) this.#join(cors);
    return this.#notModifiedWithCors!;
  }

  #join(cors: HeaderBlock): void {
    this.#answerWithCors = encodeBlock(joinBlocks(this.answer, cors));
    this.#notModifiedWithCors = encodeBlock(joinBlocks(this.notModified, cors));
    this.#cors = cors;
  }
}
