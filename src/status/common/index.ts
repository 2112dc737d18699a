/** The status feature's common layer as other features see it: import from here, not from its files. */
export { compact } from './statusView';
