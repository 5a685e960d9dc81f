import { createHash } from 'node:crypto';

/**
 * The cache key as sent: the SHA-256 of the request's key in hex (64 characters, within
 * OpenAI's limit), so a session id that names a user or a customer never leaves the process.
 */
export function wireCacheKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
