/**
 * A failed @gateway question's reason as chat Markdown: the error's words as plain text and its
 * addresses as code. VS Code's chat linkifies a bare URL and took the escaped text after it into
 * the link ("http://127.0.0.1:9/v1 \(connect ECONNREFUSED …\)", backslashes shown); a code span is
 * never linkified. Nothing in a message is read as Markdown: no link, emphasis, HTML or icon.
 */
import { inlineCode } from '../../base/common';

const URL = /\bhttps?:\/\/[^\s"'<>]*[^\s"'<>.,;:)]/g;
/** What Markdown (and VS Code's `$(icon)`) could read in plain text. */
const SPECIAL = /[\\`*_{}[\]()#+\-!~<>|$]/g;

export function failureMarkdown(message: string): string {
  let markdown = '';
  let at = 0;
  for (const match of message.matchAll(URL)) {
    markdown += escape(message.slice(at, match.index)) + inlineCode(match[0]);
    at = match.index + match[0].length;
  }
  return `$(error) ${markdown}${escape(message.slice(at))}`;
}

function escape(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(SPECIAL, '\\$&');
}
