// The character encodings of the files crm reads and writes. Input is UTF-8 unless the user names
// another: a file that is not valid UTF-8 (a spreadsheet's "CSV" saved on Windows is windows-1252)
// is refused naming its first bad line, since decoding it anyway would put U+FFFD in place of its
// letters, silently. "latin1" is read as windows-1252, its superset, as browsers do (WHATWG Encoding).

import { isUtf8 } from 'node:buffer';
import type { TEXT_ENCODINGS } from '../registry/local.js';
import { usageError } from './errors.js';

export type TextEncoding = (typeof TEXT_ENCODINGS)[number];

interface DecodedText {
  /** Without the byte order mark. */
  text: string;
  /** The input began with a UTF-8 byte order mark. */
  bom: boolean;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Bytes as text; anything but valid UTF-8 (without an encoding named) is a usage error naming the
 * line. ENCODING undefined: the command reads UTF-8 only (it has no --encoding for the hint to name).
 */
export function decodeText(bytes: Buffer, label: string, encoding?: TextEncoding): DecodedText {
  if (encoding !== undefined && encoding !== 'utf8') return { text: bytes.toString('latin1').replace(/[\x80-\x9f]/g, (char) => C1_AS_WINDOWS_1252.get(char) ?? char), bom: false };
  const bom = bytes.subarray(0, 3).equals(BOM);
  if (!isUtf8(bytes)) {
    throw usageError(
      `${label} is not UTF-8 (line ${firstInvalidLine(bytes)})`,
      encoding === undefined ? 'save it as UTF-8' : 'save it as UTF-8, or name its encoding: --encoding cp1252 (a spreadsheet\'s "CSV" saved on Windows) or --encoding latin1',
    );
  }
  return { text: bytes.toString('utf8', bom ? 3 : 0), bom };
}

/** The number of the first line that is not UTF-8 (a line feed is never part of a multi-byte character). */
function firstInvalidLine(bytes: Buffer): number {
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(0x0a, start);
    if (end < 0 || !isUtf8(bytes.subarray(start, end))) return line;
    start = end + 1;
  }
}

/** Text as bytes of ENCODING (with a byte order mark when asked); a character windows-1252 lacks becomes "?". */
export function encodeText(text: string, encoding: TextEncoding, bom: boolean): Buffer {
  if (encoding === 'utf8') return Buffer.concat([bom ? BOM : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
  const bytes = Buffer.alloc(text.length);
  let length = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    bytes[length++] = WINDOWS_1252_BYTES.get(char) ?? (code <= 0xff && !(code >= 0x80 && code <= 0x9f) ? code : 0x3f);
  }
  return bytes.subarray(0, length);
}

/**
 * windows-1252 is latin1 but for 0x80-0x9F (WHATWG's index; the five bytes it leaves undefined stay
 * as they are). Written out rather than asked of TextDecoder: Node 20.18.3 and later decode
 * "windows-1252" as latin1 there (nodejs/node#60888), which is the very mistake this guards against.
 */
const WINDOWS_1252 = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';
const C1_AS_WINDOWS_1252 = new Map([...WINDOWS_1252].map((char, index) => [String.fromCharCode(0x80 + index), char]));
const WINDOWS_1252_BYTES = new Map([...WINDOWS_1252].map((char, index) => [char, 0x80 + index]));
