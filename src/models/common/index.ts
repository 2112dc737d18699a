/** The models feature's common layer as other features see it: import from here, not from its files. */
export { ModelEndpoints } from './modelEndpoints';
export { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT_TOKENS, type LearnedWindowStore, type ModelLimits, ModelWindows } from './modelWindows';
export { droppedNote, streamFitted } from './historyFit';
