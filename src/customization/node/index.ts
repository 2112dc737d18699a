/** The customization feature's node layer as other features see it: import from here, not from its files. */
export { NodeHookFiles } from './nodeHookFiles';
export { hookProcess } from './hookProcessLoader';
