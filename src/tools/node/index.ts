/** The tools feature's node layer as other features see it: import from here, not from its files. */
export { AnchoredFiles } from './anchoredFiles';
export { WorkspaceAnchor } from './anchoredPaths';
export { type AnchorOptions } from './anchoredRequests';
export { NodeFileChanges } from './nodeFileChanges';
export { NodeWorkspaceFiles } from './nodeWorkspaceFiles';
export { RipgrepSearch } from './ripgrep';
export { findVsCodeRipgrep } from './ripgrepLocator';
