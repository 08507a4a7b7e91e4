import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256, the only checksum recovery evidence uses. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export const SHA256_PATTERN = /^[0-9a-f]{64}$/;
