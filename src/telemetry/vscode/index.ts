/** The telemetry feature's vscode layer as other features see it: import from here, not from its files. */
export { clearCollectorHeaders, CollectorHeadersStore, setCollectorHeaders } from './collectorHeaders';
