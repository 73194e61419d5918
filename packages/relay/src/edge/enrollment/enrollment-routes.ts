import type { EdgeHandler } from '../http/edge-handler.js';
import { createEnrollHandler, type EnrollHandlerOptions } from './enroll-handler.js';
import { createPolicyHandler, type PolicyHandlerOptions } from './policy-handler.js';
import { createProvisionHandler, type ProvisionHandlerOptions } from './provision-handler.js';

/** Options of {@link enrollmentRoutes}: those of the three endpoints together. */
export interface EnrollmentRoutesOptions
  extends EnrollHandlerOptions,
    ProvisionHandlerOptions,
    PolicyHandlerOptions {}

/**
 * The three gateway → connector HTTP endpoints as routes for `createEdgeRouter`:
 * `POST /relay/enroll`, `POST /relay/provision` and `POST /relay/policy` (see
 * {@link createEnrollHandler}, {@link createProvisionHandler}, {@link createPolicyHandler}).
 *
 * @example
 * ```ts
 * const router = createEdgeRouter({
 *   ...enrollmentRoutes({ verifyIdentity, enrollmentTokens, secrets, registry, policies }),
 *   '/relay/media': media,
 * });
 * ```
 * @throws {RelayError} `invalid_enrollment_argument`: a missing store or verifier, or an unusable option.
 */
export function enrollmentRoutes(options: EnrollmentRoutesOptions): Readonly<Record<string, EdgeHandler>> {
  return {
    'POST /relay/enroll': createEnrollHandler(options),
    'POST /relay/provision': createProvisionHandler(options),
    'POST /relay/policy': createPolicyHandler(options),
  };
}
