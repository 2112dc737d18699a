/** The gateway feature's vscode layer as other features see it: import from here, not from its files. */
export { type ApiKeyCommandDeps, clearApiKey, setApiKey } from './apiKeyCommands';
export { ApiKeyStore } from './apiKeyStore';
export { actionsFor, messageOf } from './errorActions';
export { ErrorPresenter } from './errorPresenter';
export { configuredOrigin, CONFIRM_KEY_ORIGIN_COMMAND, confirmKeyOrigin, confirmKeyOriginFromButton } from './keyOriginPrompt';
