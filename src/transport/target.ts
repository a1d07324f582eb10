// What goes on a request line: a URL's path and query in their encoded form. Characters a request
// line cannot carry as they are (spaces, non-ASCII, `"<>` and the like) are percent-encoded as
// UTF-8; escapes already there are kept. A control character has no safe form (CR and LF would end
// the line and smuggle a header or a second request): such a URL is refused, never cleaned up.

import { pathAndQuery } from './types.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A character to encode: outside printable ASCII, one a URL may not hold raw, or a `%` that starts no escape. */
const UNSAFE = /[^\x21-\x7e]|["<>\\^`{|}]|%(?![0-9A-Fa-f]{2})/gu;

/** Why a URL cannot be sent, or undefined when it can. */
export function unsendableUrl(url: string): string | undefined {
  if (CONTROL.test(url)) return 'it holds a control character (a line break, a tab...)';
  if (/[\uD800-\uDFFF]/u.test(url.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))) return 'it holds a broken Unicode character';
  return undefined;
}

/** The path and query of `url` as sent (see above); undefined when it cannot be sent. */
export function requestTarget(url: string): string | undefined {
  if (unsendableUrl(url) !== undefined) return undefined;
  return pathAndQuery(url).replace(UNSAFE, (char) => encodeURIComponent(char));
}
