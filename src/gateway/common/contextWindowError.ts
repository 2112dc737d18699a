/** The context window a gateway names when a request is too long for the model. */

/** The smallest window believed: a smaller number in an error or a setting is a mistake, not a model. */
export const MIN_CONTEXT_WINDOW = 1_024;
/** The N of "This model's maximum context length is N tokens", the widely used interface's wording. */
export function windowFromErrorText(text: string): number | undefined {
  const match = /maximum context length is (\d{1,9}) tokens/i.exec(text.slice(0, 2_000));
  if (!match) return undefined;
  const window = Number(match[1]);
  return window >= MIN_CONTEXT_WINDOW ? window : undefined;
}
