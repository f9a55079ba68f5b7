import crypto from 'node:crypto';

/*
 * Bot tokens at rest: AES-256-GCM under a key derived from SECRET_KEY, so a copy of the platform store
 * without the configuration holds no usable token. Each value: iv.tag.ciphertext, base64url.
 */

const keyOf = (secretKey: string) => Buffer.from(crypto.hkdfSync('sha256', secretKey, 'platform', 'bot-tokens', 32));

export function encrypt(secretKey: string, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(secretKey), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

export function decrypt(secretKey: string, sealed: string): string {
  const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(secretKey), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/**
 * A studio's webhook secret: derived from its bot's token, so every instance knows it without storing
 * it, and a new token (the old one leaked) means a new secret. Telegram allows A–Z a–z 0–9 _ -.
 */
export const webhookSecretOf = (secretKey: string, token: string) =>
  crypto.createHmac('sha256', secretKey).update(`webhook:${token}`).digest('base64url');

/** A studio's own signing key for its staff's tokens: a token of one studio is refused by every other. */
export const studioSecretKey = (secretKey: string, studioId: number) =>
  crypto.createHmac('sha256', secretKey).update(`studio:${studioId}`).digest('hex');
