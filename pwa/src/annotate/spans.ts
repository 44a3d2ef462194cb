/**
 * Answer spans for extractive QA. The browser measures offsets in UTF-16 code units; the API (Python)
 * in code points. Pure functions.
 */

/** Code-point offset of a UTF-16 offset in `text`. */
export function toCodePointOffset(text: string, utf16Offset: number): number {
  let count = 0;
  for (let i = 0; i < utf16Offset && i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Trim whitespace off a selected span, keeping its offsets right. */
export function trimSpan(text: string, start: number, end: number): { start: number; end: number } | null {
  let s = Math.max(0, Math.min(start, end));
  let e = Math.min(text.length, Math.max(start, end));
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return e > s ? { start: s, end: e } : null;
}

/** The span as the API wants it: the answer text and its code-point start. */
export function apiAnswer(text: string, span: { start: number; end: number }): { answer: string; answerStart: number } {
  return { answer: text.slice(span.start, span.end), answerStart: toCodePointOffset(text, span.start) };
}
