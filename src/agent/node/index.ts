/** The agent feature's node layer as other features see it: import from here, not from its files. */
export { NodeJournalFolder } from './nodeJournalFolder';
export { nodeLocalMachine } from './nodeLocalMachine';
