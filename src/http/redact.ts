// The API key never reaches a terminal or a log in full.

/**
 * Below this length a key's last 4 characters would give away a quarter or more of it, so none are
 * shown; and its text turns up in ordinary data by chance ("ab" in "abc", "1" in `"total": 1`), so it
 * is masked only where it stands alone (`standsAlone`), and in a JSON body only inside string values.
 */
const SHORT_KEY = 16;

/** The key's last 4 characters only, and only when the key is long enough that they give nothing away. */
export function maskKey(key: string): string {
  return key.length >= SHORT_KEY ? `****${key.slice(-4)}` : '****';
}

/**
 * Headers that carry a credential of their own: one given with crm api -H (a proxy's or a gateway's
 * authorization, a session cookie), one a server sets. A trace or a dry run shows them masked whole,
 * as gh's debug output does: --debug printed `Authorization: Bearer <token>` as it was sent.
 */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** A header's value as a trace or a dry run shows it. */
export function shownHeaderValue(name: string, value: string): string {
  return CREDENTIAL_HEADERS.has(name.toLowerCase()) ? '****' : value;
}

/**
 * Replaces every occurrence of the key in a line of text; a short key, only where it stands alone
 * (between white space, quotes, punctuation, `=`, `&`, `?`, brackets or the ends of the text), so
 * that a path (`/api/v1`) or a word holding its letters is never garbled.
 */
export function redact(text: string, key: string | undefined): string {
  // Most text holds no key: no split, no copy.
  if (!key || !text.includes(key)) return text;
  if (key.length >= SHORT_KEY) return text.split(key).join(maskKey(key));
  return text.replace(standsAlone(key), maskKey(key));
}

const SEPARATOR = String.raw`[\s"'\`=:,.;!|&?()<>\[\]{}]`;

function standsAlone(key: string): RegExp {
  const escaped = key.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return new RegExp(`(?<=^|${SEPARATOR})${escaped}(?=$|${SEPARATOR})`, 'g');
}

/**
 * A JSON body with the key masked in its values too: JSON may spell any character as \uXXXX (and /
 * as \/), so a key echoed that way is not in the body's text but reaches every reader once parsed.
 * A body with escapes is read: when a value holds the key, the body is the masked JSON, re-written.
 * A short key is looked for in string values only, and masked where it stands alone there: in the
 * text it would match numbers and member names (a key "1" would break `"total": 1`).
 */
export function redactBody(body: string, key: string | undefined): string {
  if (key && key.length < SHORT_KEY) return redactShortKeyInJson(body, key);
  const text = redact(body, key);
  if (!key || !text.includes('\\')) return text;
  let canonical: string;
  try {
    canonical = JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
  // The key as JSON writes it (only " and \ and controls are escaped), as canonical text holds it.
  const written = JSON.stringify(key).slice(1, -1);
  return canonical.includes(written) ? canonical.split(written).join(maskKey(key)) : text;
}

function redactShortKeyInJson(body: string, key: string): string {
  // Without a backslash the text spells every value as it is: no key in it, none in the values.
  if (!body.includes(key) && !body.includes('\\')) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Not JSON: reported as a malformed answer, whose message shows some of the text.
    return redact(body, key);
  }
  let changed = false;
  const masked = JSON.stringify(parsed, (_name, value: unknown) => {
    if (typeof value !== 'string') return value;
    const redacted = redact(value, key);
    if (redacted !== value) changed = true;
    return redacted;
  });
  return changed ? masked : body;
}
