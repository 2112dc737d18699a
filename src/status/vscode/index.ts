/** The status feature's vscode layer as other features see it: import from here, not from its files. */
export { GatewayStatusBar } from './statusBar';
export { showWalkthroughProgress, walkthroughAsked } from './walkthroughProgress';
