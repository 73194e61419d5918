import {
  type CapabilityRequest,
  type CapabilityResponse,
  type CapabilityStreamFrame,
  type CatalogueCapabilityName,
  catalogueDescriptor,
} from './catalogue/index.js';
import { type CapabilityValidators, validatorsFor } from './validators.js';

/**
 * The validators of a catalogue capability, typed: `request.parse` returns the request with defaults
 * filled in, `response.parse` the `{output, meta}` body, `stream.parse` one `{event, data}` frame.
 *
 * @example
 * ```ts
 * const { request } = catalogueValidators('market.list');
 * request.parse({ params: {}, input: {} }).input.limit; // 50
 * ```
 */
export function catalogueValidators<N extends CatalogueCapabilityName>(
  name: N,
): CapabilityValidators<CapabilityRequest<N, 'output'>, CapabilityResponse<N>, CapabilityStreamFrame<N>> {
  return validatorsFor(catalogueDescriptor(name)) as CapabilityValidators<
    CapabilityRequest<N, 'output'>,
    CapabilityResponse<N>,
    CapabilityStreamFrame<N>
  >;
}
