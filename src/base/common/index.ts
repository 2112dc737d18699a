/** The base feature's common layer as other features see it: import from here, not from its files. */
export { codeFence, inlineCode } from './markdown';
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
