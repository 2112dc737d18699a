/**
 * The part of a model request that comes from the user's settings (sampling,
 * length, service tier, reasoning effort). @gateway, Edit Selection and VS
 * Code's model picker all send it, so one setting means the same everywhere.
 */
import type { ChatParams } from '../../gateway/common';
import type { GatewaySettings } from './gatewaySettings';

export type RequestParameters = Pick<ChatParams, 'temperature' | 'topP' | 'maxTokens' | 'reasoningEffort' | 'serviceTier'>;

export function requestParameters(settings: GatewaySettings): RequestParameters {
  return {
    temperature: settings.temperature,
    topP: settings.topP,
    maxTokens: settings.maxTokens,
    reasoningEffort: settings.reasoningEffort,
    serviceTier: settings.serviceTier,
  };
}
