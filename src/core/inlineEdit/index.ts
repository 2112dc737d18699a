export { buildInlineEditMessages, surroundingContext, headLines, tailLines, MAX_CONTEXT_CHARS, MAX_CONTEXT_LINES, type InlineEditPromptInput, type SurroundingContext } from './prompt';
export { CodeAnswerCleaner, cleanCodeAnswer, type CodeAnswerCleanerOptions } from './answerCleaner';
export { diffLines, diffLineArrays, diffStats, splitLines, MAX_DIFF_LINES, MAX_EDIT_DISTANCE, type DiffKind, type DiffOp, type DiffStats } from './lineDiff';
