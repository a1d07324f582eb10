// The API key never reaches a terminal or a log in full.

/** The key's last 4 characters only, and only when the key is long enough that they give nothing away. */
export function maskKey(key: string): string {
  return key.length >= 16 ? `****${key.slice(-4)}` : '****';
}

/** Replaces every occurrence of the key in a line of text. */
export function redact(text: string, key: string | undefined): string {
  // Most text holds no key: no split, no copy.
  if (!key || !text.includes(key)) return text;
  return text.split(key).join(maskKey(key));
}

/**
 * A JSON body with the key masked in its values too: JSON may spell any character as \uXXXX (and /
 * as \/), so a key echoed that way is not in the body's text but reaches every reader once parsed.
 * A body with escapes is read: when a value holds the key, the body is the masked JSON, re-written.
 */
export function redactBody(body: string, key: string | undefined): string {
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
