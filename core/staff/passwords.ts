import crypto from 'node:crypto';
import { createRequire } from 'node:module';

// algorithm 2 = Argon2id (the package's const enum cannot be imported under isolatedModules).
const ARGON = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

// The native module is loaded by the first hash or check, not at start-up. Loaded with require(): the
// hash then starts on its thread at once, where import() would wait for the event loop (on a new
// database the first superuser's hash runs while the app is built, and readiness waits for it).
const requireFromHere = createRequire(import.meta.url);
const argon2 = async () => requireFromHere('@node-rs/argon2') as typeof import('@node-rs/argon2');

export const hashPassword = async (password: string) => (await argon2()).hash(password, ARGON);

export async function verifyPassword(password: string, hashed: string): Promise<boolean> {
  const { verify } = await argon2();
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

// Verifying against this for unknown emails makes a login take the same time either way.
let dummyHash: Promise<string> | undefined;
export const verifyDummy = async (password: string) => {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummyHash);
  return false;
};

/** A random URL-safe token and the SHA-256 hash that is stored instead of it. */
export function newToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: sha256(token) };
}

export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export const generatePassword = () => crypto.randomBytes(12).toString('base64url');
