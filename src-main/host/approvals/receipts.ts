/**
 * Commit receipts: what an operator approved, bound to one workspace, transaction, revision and
 * content hash, signed with HMAC-SHA256 under a secret that never leaves this process.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { JunctionError, next } from '../../contracts/index.js';

export interface ReceiptBinding {
  approvalId: string;
  workspaceId: string;
  transactionId: string;
  revision: number;
  contentHash: string;
}

const bindingSchema = z.strictObject({
  approvalId: z.string(),
  workspaceId: z.string(),
  transactionId: z.string(),
  revision: z.number().int(),
  contentHash: z.string(),
});

const PREFIX = 'jrc1';
const PROCESS_SECRET = randomBytes(32);

export function receiptInvalid(message: string, details?: Record<string, unknown>): JunctionError {
  return new JunctionError('ReceiptInvalid', message, { next: next('requestReview', 'transaction-review'), ...(details ? { details } : {}) });
}

export class ReceiptSigner {
  constructor(private readonly secret: Buffer = PROCESS_SECRET) {}

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(`${PREFIX}.${payload}`).digest();
  }

  issue(binding: ReceiptBinding): string {
    const payload = Buffer.from(JSON.stringify(binding)).toString('base64url');
    return `${PREFIX}.${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The binding a receipt carries; `ReceiptInvalid` when it is malformed or its signature is not ours. */
  verify(receipt: string): ReceiptBinding {
    const [prefix, payload, signature, ...rest] = receipt.split('.');
    if (prefix !== PREFIX || !payload || !signature || rest.length > 0) throw receiptInvalid('The receipt is malformed.');
    const expected = this.mac(payload);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw receiptInvalid('The receipt signature is not valid.');
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw receiptInvalid('The receipt payload is not readable.');
    }
    const parsed = bindingSchema.safeParse(decoded);
    if (!parsed.success) throw receiptInvalid('The receipt payload is not readable.');
    return parsed.data;
  }
}
