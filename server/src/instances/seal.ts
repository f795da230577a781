import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What the instances put in Redis, signed with their shared key (SITE_SECRET, never in Redis):
 * whoever can write to Redis cannot make a value the instances take (docs/deploy.md, « Redis »).
 * A value is signed for its place (`context`: its key or channel), so that a value signed for one
 * place is refused in another.
 */
export interface Sealer {
  /** `<HMAC-SHA256 of the context and the text, base64url>.<text>` */
  seal(context: string, text: string): string;
  /** The text of a sealed value, or null when its signature is absent or false. */
  open(context: string, sealed: string): string | null;
  /** The signature of bytes (an archive, a picture), for its place. */
  sign(context: string, bytes: Uint8Array): string;
  /** Whether `signature` is the one of these bytes for this place. */
  verify(context: string, bytes: Uint8Array, signature: string): boolean;
}

const same = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function sealer(secret: string): Sealer {
  const mac = (context: string, data: string | Uint8Array) =>
    createHmac('sha256', secret).update(context).update('\0').update(data).digest('base64url');
  return {
    seal: (context, text) => `${mac(context, text)}.${text}`,
    open(context, sealed) {
      const dot = sealed.indexOf('.');
      if (dot < 0) return null;
      const text = sealed.slice(dot + 1);
      return same(sealed.slice(0, dot), mac(context, text)) ? text : null;
    },
    sign: (context, bytes) => mac(context, bytes),
    verify: (context, bytes, signature) => same(signature, mac(context, bytes)),
  };
}
