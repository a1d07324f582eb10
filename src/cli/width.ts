// How wide text is on a terminal: CJK characters and most emoji take two columns, combining marks
// and the parts of a ZWJ sequence after the first none. string-width measures it; tables are cut
// and padded by it (./output/table-kit.ts), so every width crm computes agrees with what it draws.

import stringWidth from 'string-width';

export function displayWidth(text: string): number {
  return stringWidth(text);
}

let graphemes: Intl.Segmenter | undefined;

/** Text cut to WIDTH columns with a trailing …, between grapheme clusters (never inside an emoji or an accented letter). */
export function truncate(text: string, width: number): string {
  if (width < 2 || stringWidth(text) <= width) return text;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = stringWidth(segment);
    if (used + size > width - 1) break;
    kept += segment;
    used += size;
  }
  return `${kept}…`;
}

/** Text padded with spaces to WIDTH columns: after it, or before it (numbers). */
export function pad(text: string, width: number, alignRight = false): string {
  const fill = ' '.repeat(Math.max(0, width - stringWidth(text)));
  return alignRight ? fill + text : text + fill;
}
