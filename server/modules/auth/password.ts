import type * as Argon2 from '@node-rs/argon2';
import type { Algorithm } from '@node-rs/argon2';

/** The native addon loads with the first sign-in or new password, not when the server starts (decision 023-b). */
let loading: Promise<typeof Argon2> | undefined;
const argon2 = () => (loading ??= import('@node-rs/argon2'));

// OWASP Password Storage Cheat Sheet: argon2id, m=19456 KiB, t=2, p=1 (the minimum it lists).
const argon2id = 2 as Algorithm; // Algorithm.Argon2id (a const enum, not importable as a value)
const options = { algorithm: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  const { verify } = await argon2();
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verified against when the account does not exist, so timing does not reveal which emails exist. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy password that matches nothing');
  return decoyHash;
}
