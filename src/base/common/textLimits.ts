/** Byte-bounded text for tool outputs: the model pays for every byte it reads. */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** The first `maxBytes` of `text`, never splitting a character. */
export function headBytes(text: string, maxBytes: number): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return decoder.decode(bytes.subarray(0, end));
}

/** The last `maxBytes` of `text`, never splitting a character, and how many bytes were dropped before it. */
export function tailBytes(text: string, maxBytes: number): { text: string; omittedBytes: number } {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return { text, omittedBytes: 0 };
  let start = bytes.length - maxBytes;
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
  return { text: decoder.decode(bytes.subarray(start)), omittedBytes: start };
}

/** The note that starts an output whose beginning was dropped; hosts that cut output themselves use it too. */
export function omittedNote(omittedBytes: number): string {
  return `(output cut: first ${omittedBytes} bytes omitted)\n`;
}

/** Splits a leading `omittedNote` off, so that two cuts add up to one note. */
export function splitOmittedNote(text: string): { text: string; omittedBytes: number } {
  const match = /^\(output cut: first (\d+) bytes omitted\)\n/.exec(text);
  if (!match) return { text, omittedBytes: 0 };
  return { text: text.slice(match[0].length), omittedBytes: Number(match[1]) };
}

/** A line cut to `maxChars` around `focus` (where a match starts), with `…` where text was dropped. */
export function clipLine(line: string, maxChars: number, focus = 0): string {
  if (line.length <= maxChars) return line;
  const start = Math.max(0, Math.min(focus - Math.floor(maxChars / 4), line.length - maxChars));
  const end = start + maxChars;
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}

/** Text that is probably not meant to be read as text: a NUL early on. */
export function looksBinary(text: string): boolean {
  return text.slice(0, 8000).includes('\0');
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
