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
