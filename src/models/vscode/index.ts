/** The models feature's vscode layer as other features see it: import from here, not from its files. */
export { GatewayLanguageModelProvider } from './languageModelProvider';
export { learnedWindows } from './learnedWindows';
export { ModelCatalog } from './modelCatalog';
export { ModelPicker } from './modelPicker';
export { ModelSelection } from './modelSelection';
