/**
 * Which model picker fixes a "model not available" error. The error names the
 * model it was raised for; the settings say whether that is the chat model, the
 * agent model, or neither (a default the user never chose), in which case both
 * pickers are offered. Kept free of `vscode` so it can be tested.
 */
export type ModelPickerCommand = 'gateway.selectModel' | 'gateway.selectAgentModel';

export function modelPickersFor(model: string | undefined, configured: { chatModel: string; agentModel: string }): ModelPickerCommand[] {
  const isChat = model !== undefined && model === configured.chatModel;
  const isAgent = model !== undefined && model === configured.agentModel;
  if (isAgent && !isChat) return ['gateway.selectAgentModel'];
  if (isChat && !isAgent) return ['gateway.selectModel'];
  return ['gateway.selectModel', 'gateway.selectAgentModel'];
}

/**
 * The model a continued agent session uses: the one chosen in "Select Agent
 * Model" when the user has chosen one, so that picking another model is how a
 * session whose model was withdrawn goes on; else the model it started with.
 */
export function modelForContinuedSession(saved: string, configuredAgentModel: string): string {
  return configuredAgentModel.trim() || saved;
}
