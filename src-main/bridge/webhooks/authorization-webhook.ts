/**
 * The synchronous authorization webhook: asks an external service whether a connecting agent or
 * plugin may proceed. Any failure to get a well-formed 2xx answer is a denial unless fail-open is set,
 * because an unreachable gate must not silently become an open door.
 */
import { z } from 'zod';
import type { AuthorizationDecision, AuthorizationGate, AuthorizationRequest } from '../../security/index.js';
import type { WebhookLogger } from './logger.js';
import { commonWebhookOptions, parseOptions, webhookUrl } from './options.js';
import { describeFailure, postJson } from './post-json.js';
import { withSignature } from './signature.js';

export const AUTHORIZATION_SCHEMA_VERSION = '1.0';

const optionsSchema = commonWebhookOptions.extend({
  url: webhookUrl,
  failOpen: z.boolean().default(false),
});

export type AuthorizationWebhookOptions = z.input<typeof optionsSchema> & {
  logger: WebhookLogger;
  /** Injectable clock for the payload timestamp. */
  now?: () => Date;
};

const answerSchema = z.object({
  allowed: z.boolean(),
  reason: z.string().nullish(),
});

export function createAuthorizationWebhook(input: AuthorizationWebhookOptions): AuthorizationGate {
  const { logger, now = () => new Date(), ...settings } = input;
  const { url, token, headerName, timeoutMs, failOpen } = parseOptions(optionsSchema, settings, 'authorization webhook');

  function payload(request: AuthorizationRequest): string {
    // Member order follows the published request format; the signature is appended last.
    const body = JSON.stringify({
      schemaVersion: AUTHORIZATION_SCHEMA_VERSION,
      eventType: `authorization.${request.clientType}`,
      timestamp: now().toISOString(),
      connectionId: request.connectionId,
      clientType: request.clientType,
      bearerToken: request.bearerToken,
      remoteIpAddress: request.remoteIpAddress,
      userAgent: request.userAgent,
      requestPath: request.requestPath,
      clientName: request.clientName,
      clientVersion: request.clientVersion,
    });
    return token === undefined ? body : withSignature(body, token);
  }

  function unanswered(request: AuthorizationRequest, cause: string): AuthorizationDecision {
    const fields = { connectionId: request.connectionId, clientType: request.clientType, cause };
    if (failOpen) {
      logger.warn('authorization webhook failed; allowing the connection because fail-open is set', fields);
      return { allowed: true, via: 'fail-open' };
    }
    logger.warn('authorization webhook failed; denying the connection (fail-closed)', fields);
    return { allowed: false, via: 'fail-closed', reason: `authorization service unavailable (${cause})` };
  }

  function parseAnswer(text: string): z.output<typeof answerSchema> | string {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return 'response is not JSON';
    }
    const answer = answerSchema.safeParse(json);
    return answer.success ? answer.data : 'response is not { allowed: boolean, reason?: string }';
  }

  return {
    async authorize(request) {
      let status: number;
      let text: string;
      try {
        ({ status, text } = await postJson({ url, body: payload(request), token, headerName, timeoutMs }));
      } catch (error) {
        return unanswered(request, describeFailure(error, timeoutMs));
      }
      if (status < 200 || status > 299) return unanswered(request, `HTTP ${status}`);
      const answer = parseAnswer(text);
      if (typeof answer === 'string') return unanswered(request, answer);

      const fields = { connectionId: request.connectionId, clientType: request.clientType };
      if (answer.allowed) {
        logger.info('authorization webhook allowed the connection', fields);
        return { allowed: true, via: 'webhook' };
      }
      const reason = answer.reason ?? 'denied by the authorization webhook';
      logger.warn('authorization webhook denied the connection', { ...fields, reason });
      return { allowed: false, via: 'webhook', reason };
    },
  };
}
