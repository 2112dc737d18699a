/** The tools feature's vscode layer as other features see it: import from here, not from its files. */
export { chooseHostTools, grantableHostTools, hostToolsFor, prepareMcpTools } from './languageModelTools';
export { VsCodeFileChanges } from './vscodeFileChanges';
export { VsCodeLanguageServices } from './vscodeLanguageServices';
export { VsCodeWorkspaceFiles } from './vscodeWorkspaceFiles';
