import * as z from 'zod/mini';
import { isKeyString } from '../../buffer/key-string.js';

/** The longest `displayName` the gateway sends, in code points (Python `len`). */
export const MAX_DISPLAY_NAME_LENGTH = 64;

const name = z.string().check(z.refine(isKeyString, 'must be a non-empty, well-formed string'));

/** `POST /relay/enroll` body, as `hermes gateway enroll` sends it. */
export const enrollRequestSchema = z.object({
  enrollmentToken: name,
  gatewayId: name,
});

/** `POST /relay/provision` body: optional keys appear only when the gateway has them set. */
export const provisionRequestSchema = z.object({
  gatewayId: name,
  platform: name,
  botId: z.string(),
  gatewayEndpoint: z.string(),
  routeKeys: z.array(name),
  instanceId: z.optional(name),
  wakeUrl: z.optional(z.url({ protocol: /^https?$/ })),
  displayName: z.optional(
    z
      .string()
      .check(
        z.refine(
          (value) => [...value].length <= MAX_DISPLAY_NAME_LENGTH,
          `must be at most ${MAX_DISPLAY_NAME_LENGTH} characters`,
        ),
      ),
  ),
});

/**
 * `POST /relay/policy` body. Current gateways send all four keys; earlier ones sent only the keys
 * that differ from the default, so a missing key reads as its default (`false`, `[]`).
 */
export const policyRequestSchema = z.object({
  platform: name,
  requireAddress: z._default(z.boolean(), false),
  freeResponseScopes: z._default(z.array(name), []),
  allowOtherBots: z._default(z.boolean(), false),
});

/** The body of `POST /enroll`, decoded (defaults filled). */
export type EnrollRequest = z.infer<typeof enrollRequestSchema>;
/** The body of `POST /provision`, decoded (defaults filled). */
export type ProvisionRequest = z.infer<typeof provisionRequestSchema>;
/** The body of `POST /policy`, decoded (defaults filled). */
export type PolicyRequest = z.infer<typeof policyRequestSchema>;
