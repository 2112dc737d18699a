/**
 * Text put into markdown as code, so that it cannot end the code early: the
 * model's prompts (attachments, the code around a selection) and the agent
 * transcript carry files and outputs that may hold backticks of their own.
 */

/** Length of the longest run of backticks in `text` (0 when it has none). */
export function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 0x60 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * `content` as a fenced code block. The fence is longer than any backtick run
 * inside (at least three), so no line of the content can close it; the closing
 * fence stands on its own line whether or not the content ends with a newline.
 */
export function codeFence(content: string, language = ''): string {
  const ticks = '`'.repeat(Math.max(3, longestBacktickRun(content) + 1));
  // A backtick or line break in the info string would end the opening fence, so only a plain word is kept.
  const info = language.replace(/[^\w+#.-]/g, '');
  const body = content.endsWith('\n') ? content : `${content}\n`;
  return `${ticks}${info}\n${body}${ticks}`;
}

/** `text` as inline code on one line: delimited by more backticks than it holds, line breaks folded to spaces. */
export function inlineCode(text: string): string {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ');
  const ticks = '`'.repeat(longestBacktickRun(flat) + 1);
  // A span that starts or ends with a backtick needs a space, or the delimiter would run into it.
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/**
 * The fence that closes a code block `text` leaves open (the opening run of backticks or tildes), or undefined: model
 * text that ends inside a fence would swallow whatever Markdown comes after it (a footer, a note) as code.
 */
export function openFenceOf(text: string): string | undefined {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!fence) continue;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
  }
  return open;
}
