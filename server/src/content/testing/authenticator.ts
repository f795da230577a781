import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A passkey authenticator in software, for the server's tests (the browser tests use Chromium's
 * own virtual authenticator): it answers `navigator.credentials.create()` and `.get()` as a
 * platform authenticator does, with an ES256 key, no attestation ("none"), user present and
 * verified (or, with `userVerified: false`, a security key without a PIN: present only), and a
 * signature counter.
 */

/** CBOR (RFC 8949) of what WebAuthn needs: unsigned and negative integers, bytes, text, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const two = Buffer.alloc(3);
    two[0] = (major << 5) | 25;
    two.writeUInt16BE(length, 1);
    return two;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    const entries = [...(value as Map<unknown, unknown>)];
    return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])]);
  }
  throw new Error(`CBOR : type non pris en charge (${typeof value})`);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

export interface SoftwareAuthenticator {
  /** Answers registration options (PublicKeyCredentialCreationOptionsJSON) for `origin`. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, origin: string): unknown;
  /** Answers authentication options; with the credential registered for that relying party. */
  get(options: { challenge: string; rpId?: string }, origin: string): unknown;
  /** How many credentials it holds. */
  readonly size: number;
  /** Whether it verifies its user (a PIN, a fingerprint) in its next answers. */
  userVerified: boolean;
}

export function softwareAuthenticator({ userVerified = true } = {}): SoftwareAuthenticator {
  const credentials: Credential[] = [];
  // The flags' bits: user present (0x01), user verified (0x04), attested credential data (0x40).
  const state = { userVerified };
  const verified = () => (state.userVerified ? 0x04 : 0);
  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  return {
    get size() {
      return credentials.length;
    },
    get userVerified() {
      return state.userVerified;
    },
    set userVerified(value: boolean) {
      state.userVerified = value;
    },
    create(options, origin) {
      const rpId = options.rp.id ?? new URL(origin).hostname;
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = cbor(
        new Map<number, unknown>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x ?? '', 'base64url')],
          [-3, Buffer.from(jwk.y ?? '', 'base64url')],
        ]),
      );
      const id = randomBytes(16);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(id.length);
      // rpIdHash, flags (user present, user verified, attested credential data), counter 0,
      // then the AAGUID (zeros), the credential's id and its public key.
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([0x41 | verified()]),
        Buffer.alloc(4),
        Buffer.alloc(16),
        length,
        id,
        cose,
      ]);
      credentials.push({ id, privateKey, userHandle: options.user.id, counter: 0 });
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      };
    },
    get(options, origin) {
      const credential = credentials.at(-1);
      if (credential === undefined) throw new Error('aucune clé d’accès');
      const rpId = options.rpId ?? new URL(origin).hostname;
      credential.counter += 1;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(credential.counter);
      const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([0x01 | verified()]), counter]);
      const data = clientData('webauthn.get', options.challenge, origin);
      const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(data)]), credential.privateKey);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authenticatorData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
      };
    },
  };
}
