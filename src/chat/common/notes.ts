/**
 * How a note on an output the model sent unasked (a hosted tool's call) shows in a chat answer,
 * and how it is taken out again when that answer becomes history: VS Code hands a participant its
 * earlier answers as their markdown, notes included, and a note is for the user, never the model.
 */

/** The note as its own quoted, italic paragraph (the decoders' sentence holds no Markdown but code spans). */
export function noteMarkdown(text: string): string {
  return `\n\n> _${text}_\n\n`;
}

/** The answer's text without the notes it showed (`notes`: the exact markdown from `noteMarkdown`, kept in the result's metadata). */
export function withoutNotes(text: string, notes: unknown): string {
  if (!Array.isArray(notes)) return text;
  let clean = text;
  for (const note of notes) if (typeof note === 'string' && note !== '') clean = clean.split(note).join('');
  return clean;
}
