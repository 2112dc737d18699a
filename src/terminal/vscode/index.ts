/** The terminal feature's vscode layer as other features see it: import from here, not from its files. */
export { showControlRollback } from './controlRollbackNotice';
export { TerminalCommandRunner } from './terminalCommandRunner';
export { vscodeControlWatcher } from './vscodeControlWatcher';
