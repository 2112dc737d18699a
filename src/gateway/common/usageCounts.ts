import type { Usage } from './types';

/**
 * Normalises both usage shapes (chat's prompt/completion tokens, responses'
 * input/output tokens) and both places for reasoning tokens: flat, as the spec
 * shows, or nested in `*_tokens_details`, as the interface sends.
 */
export function normaliseUsage(raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const usage = raw as Record<string, unknown>;
  const input = num(usage.input_tokens) ?? num(usage.prompt_tokens);
  const output = num(usage.output_tokens) ?? num(usage.completion_tokens);
  if (input === undefined && output === undefined) return undefined;
  const details = (usage.output_tokens_details ?? usage.completion_tokens_details) as Record<string, unknown> | undefined;
  const reasoning = num(usage.reasoning_tokens) ?? num(details?.reasoning_tokens) ?? 0;
  const inputTokens = input ?? 0;
  const outputTokens = output ?? 0;
  const inputDetails = (usage.input_tokens_details ?? usage.prompt_tokens_details) as Record<string, unknown> | undefined;
  const cached = num(inputDetails?.cached_tokens);
  return {
    inputTokens,
    outputTokens,
    reasoningTokens: reasoning,
    totalTokens: num(usage.total_tokens) ?? inputTokens + outputTokens,
    // Only when some were: a 0 says nothing the absence does not, and keeps the usual shape.
    ...(cached === undefined || cached <= 0 ? {} : { cachedTokens: cached }),
  };
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
