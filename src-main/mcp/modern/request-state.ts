/**
 * The `requestState` of an input-required result: which parked call and which round of it the agent
 * answers, sealed with an HMAC under a key made when the process starts. The agent holds it between
 * rounds; a state it altered, one from another process, one for another agent or route, or one already
 * used (its round has moved on) is refused with RequestStateInvalid.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { JunctionError } from '../../contracts/index.js';

const Payload = z.strictObject({ run: z.string().min(1), round: z.int().nonnegative(), owner: z.string() });
export type RequestStatePayload = z.infer<typeof Payload>;

const refused = (why: string) => new JunctionError('RequestStateInvalid', `Invalid params: requestState ${why}; call the tool again without it to start over.`);

export class RequestStateSeal {
  private readonly key = randomBytes(32);

  seal(payload: RequestStatePayload): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  /** The payload of a state this process sealed; throws RequestStateInvalid for anything else. */
  open(state: string): RequestStatePayload {
    const [body, mac, extra] = state.split('.');
    if (body === undefined || mac === undefined || extra !== undefined) throw refused('is not one this server issued');
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(body);
    // base64url decoding ignores stray characters, so the re-encoding must match too.
    if (given.toString('base64url') !== mac || given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused('failed its integrity check');
    const parsed = Payload.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    if (!parsed.success) throw refused('is not one this server issued');
    return parsed.data;
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest();
  }
}
