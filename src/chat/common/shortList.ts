/**
 * A list in a summary line that stays one short line however long it is: a session that read 28 instruction
 * files or changed 100 files would otherwise fill the chat column (issue 38). The first few items, then a
 * count of the rest with a link to where the whole list is (the session's transcript).
 */

/** How many items a summary line names before it counts the rest. */
export const SHORT_LIST_NAMED = 5;

export interface ShortListInput {
  /** The items, each already Markdown (inline code). */
  items: readonly string[];
  /** A Markdown link target (`command:…`) that shows the whole list; without it, the rest is only counted. */
  wholeList?: string;
  /** What an empty list reads as. */
  none?: string;
}

/** "`a`, `b`, `c`, `d`, `e` and [23 more](…)", or the items whole when there are at most SHORT_LIST_NAMED + 1. */
export function shortList({ items, wholeList, none = 'none' }: ShortListInput): string {
  if (items.length === 0) return none;
  // Naming the sixth costs no more room than "and 1 more".
  if (items.length <= SHORT_LIST_NAMED + 1) return items.join(', ');
  const rest = `${(items.length - SHORT_LIST_NAMED).toLocaleString('en-US')} more`;
  return `${items.slice(0, SHORT_LIST_NAMED).join(', ')} and ${wholeList ? `[${rest}](${wholeList})` : rest}`;
}
