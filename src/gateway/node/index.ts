/** The gateway feature's node layer as other features see it: import from here, not from its files. */
export { createNodeHttpFetch } from './nodeHttpFetch';
