import { createHash } from 'node:crypto';

// A notification as « Me prévenir » sends it (docs/push.md): its targets, its message and the rules
// a message must follow.

export interface PushTarget {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushMessage {
  /** The text shown by the service worker (JSON, usually): at most PAYLOAD_MAX bytes in UTF-8. */
  payload: string;
  /** Seconds the push service keeps the message for an absent browser (RFC 8030 §5.2). */
  ttl: number;
  /** Replaces an undelivered message of the same topic (RFC 8030 §5.4): see `topicOf`. */
  topic: string;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
}

/** The largest payload before encryption: web push bodies are 4,096 bytes at most once encrypted. */
export const PAYLOAD_MAX = 3000;

/** The longest TTL taken: 28 days, more than any push service keeps a message. */
export const TTL_MAX = 28 * 24 * 60 * 60;

const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;
const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);

/**
 * A topic for a kind of message and a residence: 32 characters of base64url (RFC 8030 §5.4's
 * limit) from a hash of both, so that a newer message of the same kind for the same residence
 * replaces one the browser has not fetched yet, and the residence's id is not shown to the push
 * service.
 */
export function topicOf(kind: string, id: string): string {
  return createHash('sha256').update(kind).update('\0').update(id).digest('base64url').slice(0, 32);
}

/** Throws on a message the caller should never have made. */
export function checkMessage(message: PushMessage): void {
  if (!TOPIC.test(message.topic))
    throw new Error('Sujet de notification invalide : 1 à 32 caractères de base64url (RFC 8030 §5.4).');
  if (Buffer.byteLength(message.payload, 'utf8') > PAYLOAD_MAX)
    throw new Error(`Notification trop longue : ${PAYLOAD_MAX} octets au plus avant chiffrement.`);
  if (!Number.isInteger(message.ttl) || message.ttl < 0 || message.ttl > TTL_MAX)
    throw new Error(`Durée de vie de notification invalide : un entier de 0 à ${TTL_MAX} secondes.`);
  if (!URGENCIES.has(message.urgency)) throw new Error('Urgence de notification invalide.');
}
