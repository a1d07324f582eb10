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
