/** The base feature's common layer as other features see it: import from here, not from its files. */
export { codeFence, inlineCode, openFenceOf } from './markdown';
export { counted } from './counted';
export {
  type Clock,
  type DirectoryEntry,
  type FileChanges,
  type FileStat,
  type Logger,
  silentLogger,
  systemClock,
  TIMER_STOPPED,
  type WorkspaceFiles,
  type WriteExpectation,
} from './ports';
export { clipLine, headBytes, looksBinary, omittedNote, plural, splitOmittedNote, tailBytes, utf8Length } from './textLimits';
export { compileGlob, matchesGlob } from './glob';
export { yieldToHost } from './hostTurn';
export { re2 } from './re2';
export { prepareProtections, protectingPattern, protectingPatternOfEntry } from './protectedPaths';
export { visibleText } from './visibleText';
