import * as v from 'valibot';

/**
 * The volunteers' accounts and the invitations not yet used (docs/content.md, « Accounts »), kept
 * by the content store as a kind of its own, never served. An invitation is kept as the SHA-256 of
 * its token: the folder, a backup or Redis never hold a usable link.
 */
const role = v.picklist(['admin', 'residence', 'label', 'about', 'programmation']);
const instant = v.pipe(v.string(), v.isoTimestamp());

export const passkeySchema = v.strictObject({
  /** The credential's id, base64url. */
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
  /** Its public key (COSE), base64url. */
  publicKey: v.pipe(v.string(), v.minLength(1), v.maxLength(4096)),
  counter: v.pipe(v.number(), v.integer(), v.minValue(0)),
  transports: v.optional(v.array(v.pipe(v.string(), v.maxLength(20)))),
  createdAt: instant,
});

export const accountSchema = v.strictObject({
  /** Its name, as the history and the log say it; unique. */
  name: v.pipe(v.string(), v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/), v.maxLength(60)),
  role,
  residence: v.optional(v.pipe(v.string(), v.maxLength(60))),
  createdAt: instant,
  invitedBy: v.string(),
  passkeys: v.array(passkeySchema),
  /** When it was revoked: it can no longer sign in, and its sessions end. */
  revokedAt: v.optional(instant),
});

export const invitationSchema = v.strictObject({
  /** SHA-256 of the token, hex. */
  digest: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  role,
  residence: v.optional(v.pipe(v.string(), v.maxLength(60))),
  createdAt: instant,
  expiresAt: instant,
  by: v.string(),
  /** When it was used, and by which account: it is then refused. */
  usedAt: v.optional(instant),
  usedBy: v.optional(v.string()),
});

export const accountsSchema = v.strictObject({
  accounts: v.array(accountSchema),
  invitations: v.array(invitationSchema),
});

export type Account = v.InferOutput<typeof accountSchema>;
export type Invitation = v.InferOutput<typeof invitationSchema>;
export type Accounts = v.InferOutput<typeof accountsSchema>;

export const NO_ACCOUNTS: Accounts = { accounts: [], invitations: [] };
