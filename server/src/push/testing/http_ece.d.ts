// The part of http_ece (RFC 8188, a devDependency with no types of its own) the fake push service
// uses: the decryption of an aes128gcm body as a browser does it (RFC 8291).
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  export interface DecryptParams {
    version: 'aes128gcm';
    /** The receiver's key pair. */
    privateKey: ECDH;
    /** The subscription's authentication secret (16 bytes). */
    authSecret: Buffer | string;
  }

  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
