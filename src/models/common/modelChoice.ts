/**
 * Which model answers an `@gateway` request. The Chat view always has some
 * model selected in its picker (with no other vendor installed, one of ours),
 * and the API does not say whether the user picked it. So a gateway model in
 * the picker counts as the user's choice when it differs from the one seen on
 * the previous request (or, on the first request, from the model VS Code
 * selects by default: the first one the extension lists, which is the
 * configured chat model); then it also becomes the configured chat model, so
 * the status bar and the picker agree. Otherwise the configured model answers.
 */
export interface ModelChoiceInput {
  /** The Chat view's selected model when it is one of the gateway's; undefined for other vendors. */
  pickerModel: string | undefined;
  /** The picker model seen on the previous request (persisted across reloads). */
  lastSeenPickerModel: string | undefined;
  /** `gateway.chatModel`, or the default when that is empty. */
  configuredModel: string;
  /** The model VS Code's picker shows when nobody picked one (the first the extension listed). */
  defaultPickerModel: string | undefined;
}

export interface ModelChoice {
  model: string;
  /** True when the user switched the Chat view's picker: store `model` as the chat model. */
  adoptAsChatModel: boolean;
  lastSeenPickerModel: string | undefined;
}

export function chooseModel(input: ModelChoiceInput): ModelChoice {
  const { pickerModel, lastSeenPickerModel, configuredModel, defaultPickerModel } = input;
  const reference = lastSeenPickerModel ?? defaultPickerModel;
  const switched = pickerModel !== undefined && reference !== undefined && pickerModel !== reference;
  if (switched && pickerModel !== configuredModel) {
    return { model: pickerModel, adoptAsChatModel: true, lastSeenPickerModel: pickerModel };
  }
  return { model: configuredModel, adoptAsChatModel: false, lastSeenPickerModel: pickerModel ?? lastSeenPickerModel };
}

export type ModelRole = 'chat' | 'agent';

/**
 * The model a role uses while its setting is empty, from the models the key may
 * use: for chat the first that does not look like a code model, for the agent
 * the first that does; else the first listed. Undefined for an empty list.
 */
export function defaultModel(role: ModelRole, models: readonly { id: string }[]): string | undefined {
  const looksLikeCode = (model: { id: string }) => /code/i.test(model.id);
  const preferred = models.find((model) => looksLikeCode(model) === (role === 'agent'));
  return (preferred ?? models[0])?.id;
}
