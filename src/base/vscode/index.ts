/** The base feature's vscode layer as other features see it: import from here, not from its files. */
export { toAbortSignal } from './cancellation';
export { channelLogger } from './logger';
