/**
 * `@gateway /agent fix it` typed into a chat input that already holds `@gateway`
 * reaches the participant as the prompt "@gateway /agent fix it" with no command:
 * VS Code parses only the first mention and a slash command right after it. Sent
 * as is, the model would get a question about "@gateway @gateway /agent". The
 * repeated mention is dropped and a slash command right after it is honoured.
 */
export interface RepeatedMentionInput {
  prompt: string;
  /** The slash command VS Code parsed, if any (then nothing is re-read). */
  command: string | undefined;
  /** The participant's name as typed after `@` ("gateway"). */
  participantName: string;
  /** The participant's slash commands ("agent", "explain"…). */
  commands: readonly string[];
}

export interface CleanedRequest {
  prompt: string;
  command: string | undefined;
}

export function withoutRepeatedMention(input: RepeatedMentionInput): CleanedRequest {
  const { command, participantName, commands } = input;
  let prompt = input.prompt;
  const mention = new RegExp(`^\\s*@${escapeRegExp(participantName)}(?:\\s+|$)`, 'i');
  if (!mention.test(prompt)) return { prompt, command };
  // Several repeats ("@gateway @gateway …") are one.
  while (mention.test(prompt)) prompt = prompt.replace(mention, '');
  if (command !== undefined) return { prompt, command };
  const slash = /^\/([\w-]+)(?:\s+|$)/.exec(prompt);
  if (slash && commands.includes(slash[1])) return { prompt: prompt.slice(slash[0].length), command: slash[1] };
  return { prompt, command };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
