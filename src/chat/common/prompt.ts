/**
 * Builds the chat-completions messages for a chat request: the system prompt,
 * earlier turns of the conversation, the attached context, then the question.
 */
import type { ChatMessage } from '../../gateway/common';
import { codeFence } from '../../base/common';

export interface ConversationTurn {
  role: 'user' | 'assistant';
  text: string;
}

/** Something the user attached: a file, a selection, a symbol. */
export interface Attachment {
  /** What the model is told it is, e.g. `src/app.ts:10-20`. */
  label: string;
  /** Markdown fence language, when known. */
  language?: string;
  content: string;
}

export type SlashCommand = 'explain' | 'fix' | undefined;

export interface PromptInput {
  history: ConversationTurn[];
  attachments: Attachment[];
  prompt: string;
  command: SlashCommand;
  /** The workspace's AGENTS.md files, when there are any and the setting allows them. */
  projectInstructions?: string;
}

/** Attachments beyond this many characters are cut, so one large file cannot crowd out the question. */
export const MAX_ATTACHMENT_CHARS = 60_000;

const SYSTEM_PROMPT =
  'You are Gateway, a coding assistant inside VS Code. Answer in GitHub-flavoured Markdown. ' +
  'Put code in fenced blocks with a language. Be direct and precise; say so when unsure.';

const COMMAND_PROMPTS: Record<Exclude<SlashCommand, undefined>, string> = {
  explain: 'Explain what the attached code does, how it works, and anything surprising in it.',
  fix: 'Find the problems in the attached code and give a corrected version, explaining each fix briefly.',
};

export function buildChatMessages(input: PromptInput): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }];
  if (input.projectInstructions) messages.push({ role: 'system', content: input.projectInstructions });
  for (const turn of input.history) {
    if (turn.text.trim() === '') continue;
    messages.push(turn.role === 'user' ? { role: 'user', content: turn.text } : { role: 'assistant', content: turn.text });
  }
  messages.push({ role: 'user', content: userContent(input) });
  return messages;
}

function userContent(input: PromptInput): string {
  const parts: string[] = [];
  if (input.attachments.length > 0) {
    parts.push('Context attached by the user:');
    for (const attachment of input.attachments) parts.push(attached(attachment));
  }
  const instruction = input.command ? COMMAND_PROMPTS[input.command] : undefined;
  if (instruction) parts.push(instruction);
  const prompt = input.prompt.trim();
  if (prompt) parts.push(prompt);
  return parts.join('\n\n') || 'Hello';
}

/** The attachment's label, then its content (cut to MAX_ATTACHMENT_CHARS) in a fence it cannot close. */
function attached(attachment: Attachment): string {
  let content = attachment.content;
  if (content.length > MAX_ATTACHMENT_CHARS)
    content = `${content.slice(0, MAX_ATTACHMENT_CHARS)}\n… (cut: ${content.length - MAX_ATTACHMENT_CHARS} more characters)`;
  return `${attachment.label}:\n${codeFence(content, attachment.language)}`;
}
