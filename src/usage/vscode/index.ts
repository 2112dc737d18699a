/** The usage feature's vscode layer as other features see it: import from here, not from its files. */
export { UsageView, type UsageViewState } from './usageView';
