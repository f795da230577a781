import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import {
  PAGES,
  fillPath,
  pageHref,
  pagePattern,
  type AddressedPage,
  type PageModule,
} from '@collectif/shared/addresses';
import { holdLease, type HeldLease } from '../instances/lease';
import type { ProposalsConfig } from './config';
import type { ProposalFields, ProposalKind } from './fields';
import { MAIL_NAMES, ackMessage, backoffMs, createMailer, due, teamMessage, type MailName, type Mailer } from './mail';
import { FORM_COOKIE, MAX_FILL_MS, createSpam, type Spam } from './spam';
import { PROPOSAL_RECORD_MAX, createProposalStore, type Proposal, type ProposalStore } from './store';

declare module 'fastify' {
  interface FastifyInstance {
    /** « Proposer une émission » and « Envoyer une démo » (docs/proposals.md). */
    proposals: ProposalsService;
  }
}

/**
 * The page of each kind (mf-radio's and mf-label's), which the redirects and the links name: its
 * address is read from the site's page table (docs/proposals.md, « The pages »), with `/merci` and
 * `/supprimer` below it.
 */
export const FORM_PAGES: Record<ProposalKind, PageModule> = { emission: PAGES.proposeShow, demo: PAGES.sendDemo };

/** Below a kind's page: the form itself, « Merci ! » or the proposer's deletion. */
export type FormPage = '' | 'merci' | 'supprimer';

/** Acknowledgements one address may receive a day, whoever typed it in the form. */
export const ACKS_PER_RECIPIENT = 1;

/** How long a proposal is kept (docs/proposals.md, « What is kept, and for how long »): 12 months. */
export const KEPT_MS = 365 * 24 * 3600_000;

export interface ProposalsService {
  config: ProposalsConfig;
  store: ProposalStore;
  spam: Spam;
  /** Whether e-mails are sent: 'off' without SMTP_HOST (the demo). */
  mail: 'on' | 'off';
  /** Stores a new proposal, its two e-mails queued; sent at once by the sending instance. */
  submit(kind: ProposalKind, fields: ProposalFields): Promise<Proposal>;
  /**
   * A path of a kind's page, with its query: the site's root when the table has no such page (its
   * part is not deployed), never a path typed here.
   */
  formPath(kind: ProposalKind, below: FormPage, search?: Readonly<Record<string, string>>): Promise<string>;
  /** The `Set-Cookie` of the form's page: the visitor's own single-use token, for the proposal routes only. */
  formCookie(https: boolean): string;
  /** The proposer's deletion link (the page's, with the number and the token). */
  deleteUrl(proposal: Proposal): Promise<string>;
  /** Sends the e-mails due now (the queue's pass, at once): for tests. */
  flush(): Promise<void>;
  /** Deletes the proposals older than 12 months; how many. */
  sweep(): Promise<number>;
  /** Whether this instance is the one that sends (holds the lease). */
  sending(): boolean;
}

/** The sender's lease, as « Me prévenir »'s: 15 s, tried or renewed every 5 s. */
export const MAIL_LEASE = 'proposals:mail';
const LEASE_MS = 15_000;
const LEASE_CHECK_MS = 5_000;
/** The queue's pass while holding the lease; the sweep and the backup, less often. */
const PASS_MS = 5_000;
const SWEEP_MS = 3600_000;

export interface ProposalsPluginOptions {
  /** The site's public origin, for the deletion links in the acknowledgements ('' : paths). */
  siteOrigin?: string;
  /** The editor's origin, for the link in the collective's e-mail. */
  editorOrigin?: string | null;
  /** How long the mail server may take to answer (10 s; tests: shorter, for a server that never greets). */
  mailTimeoutMs?: number;
  /** The site's page table (`app.sitePages`), read at each use: the addresses follow the pages. */
  pages?: () => Promise<readonly AddressedPage[]>;
}

/**
 * The proposals (docs/proposals.md): decorates `proposals`, its store, its spam rules and its mail
 * queue. Once the server listens, the instance holding the sender's lease sends the e-mails due,
 * sweeps the proposals older than 12 months and writes the backup file.
 */
export const proposalsPlugin = fp(
  (app: FastifyInstance, options: ProposalsPluginOptions, done: () => void) => {
    const config = app.apiConfig.proposals;
    const warn = (message: string) => {
      app.log.warn(message);
    };
    const now = app.clock;
    const store = createProposalStore({
      file: join(app.apiConfig.contentDir, 'proposals.json'),
      budget: { bytes: config.storeBytes, recordMax: PROPOSAL_RECORD_MAX },
      shared: app.shared?.proposals ?? null,
      secret: app.apiConfig.siteSecret,
      now,
      log: { warn },
    });
    const spam = createSpam(app.apiConfig.siteSecret, now);
    const mailer: Mailer | null = config.smtp === null ? null : createMailer(config.smtp, options.mailTimeoutMs);
    const metrics = app.metrics.proposals;
    const siteOrigin = options.siteOrigin ?? '';
    const editorOrigin = options.editorOrigin ?? siteOrigin;
    let waiting = 0;
    const unwatch = metrics.waiting.watch(() => [{ value: waiting }]);
    let lease: HeldLease | null = null;
    let timer: NodeJS.Timeout | null = null;
    let lastSweep = 0;

    /** The page table, or none when it cannot be read (each address then falls back to the root). */
    const table = async (): Promise<readonly AddressedPage[]> => {
      if (options.pages === undefined) return [];
      try {
        return await options.pages();
      } catch {
        return [];
      }
    };
    const formPath = async (kind: ProposalKind, below: FormPage, search: Readonly<Record<string, string>> = {}) => {
      const pattern = pagePattern(await table(), FORM_PAGES[kind]);
      if (pattern === null) return '/';
      const query = new URLSearchParams(search).toString();
      return `${fillPath(below === '' ? pattern : `${pattern}/${below}`)}${query === '' ? '' : `?${query}`}`;
    };
    const deleteUrl = async (proposal: Proposal) =>
      `${siteOrigin}${await formPath(proposal.kind, 'supprimer', { numero: proposal.number, jeton: proposal.deleteToken })}`;
    /** The editor's admin page, opened on this proposal (`?numero=`). */
    const editorUrl = async (proposal: Proposal) =>
      `${editorOrigin}${pageHref(await table(), PAGES.admin, {}, { numero: proposal.number }) ?? '/'}`;

    const messageOf = async (proposal: Proposal, name: MailName) =>
      name === 'team'
        ? teamMessage(proposal, config.to[proposal.kind], await editorUrl(proposal))
        : ackMessage(proposal, await deleteUrl(proposal));

    /** One try of one mail, its outcome written to the proposal (unless it was deleted meanwhile). */
    const attempt = async (proposal: Proposal, name: MailName, sender: Mailer) => {
      let sent = false;
      try {
        await sender.send(await messageOf(proposal, name));
        sent = true;
      } catch (error) {
        warn(
          `propositions : courriel ${name} de ${proposal.number} non envoyé (${error instanceof Error ? error.message : String(error)})`,
        );
      }
      const at = now();
      let outcome: 'sent' | 'retry' | 'failed' = sent ? 'sent' : 'retry';
      await store.update(proposal.number, (current) => {
        const mail = current.mails[name];
        if (mail.sent) return null;
        const tries = mail.tries + 1;
        outcome = sent ? 'sent' : tries >= config.mailTries ? 'failed' : 'retry';
        return {
          ...current,
          mails: {
            ...current.mails,
            [name]: sent
              ? { sent: true, tries, nextAt: 0 }
              : {
                  sent: false,
                  tries,
                  nextAt: at + backoffMs(tries),
                  ...(outcome === 'failed' ? { failed: true } : {}),
                },
          },
        };
      });
      metrics.mails.inc({ outcome });
    };

    let passing: Promise<void> | null = null;
    /** One pass of the queue: every mail due, one after the other (a mail server is not hurried). */
    const pass = async () => {
      if (mailer === null) return;
      const at = now();
      const all = await store.list();
      // Oldest first: a proposal waits no longer than those before it.
      for (const proposal of all.reverse()) {
        for (const name of MAIL_NAMES) {
          const mail = proposal.mails[name];
          if (due(mail, at)) await attempt(proposal, name, mailer);
        }
      }
      const after = await store.list();
      waiting = after.reduce(
        (sum, proposal) => sum + MAIL_NAMES.filter((name) => due(proposal.mails[name], Infinity)).length,
        0,
      );
    };
    const flush = async () => {
      // One pass at a time in this process: a pass asked during another runs after it.
      const previous = passing ?? Promise.resolve();
      const next = previous.then(pass, pass).catch((error: unknown) => {
        warn(`propositions : file des courriels interrompue (${String(error)})`);
      });
      passing = next;
      await next;
      if (passing === next) passing = null;
    };
    const sweep = async () => {
      const removed = await store.sweep(now() - KEPT_MS);
      if (removed > 0) app.log.info({ removed }, 'propositions de plus de douze mois effacées');
      return removed;
    };

    const tick = async () => {
      await flush();
      if (now() - lastSweep >= SWEEP_MS) {
        lastSweep = now();
        await sweep().catch(() => 0);
        await store.backup();
      }
    };

    app.decorate('proposals', {
      config,
      store,
      spam,
      mail: mailer === null ? 'off' : 'on',
      async submit(kind, fields) {
        const at = now();
        const mail = { sent: false, tries: 0, nextAt: 0 };
        // One acknowledgement a day to an address, whoever typed it (docs/proposals.md, « E-mail »):
        // the count keys on a keyed hash of the address, and is spent before the proposal is kept.
        const ackDue = mailer !== null && (await store.recipient(fields.email)) <= ACKS_PER_RECIPIENT;
        const proposal = await store.create(kind, (number) => ({
          number,
          kind,
          ...fields,
          createdAt: new Date(at).toISOString(),
          state: 'nouvelle',
          notes: [],
          deleteToken: randomBytes(24).toString('base64url'),
          // Without a mail server nothing waits: the mails are marked given up, and the editor says `mail: 'off'`.
          mails:
            mailer === null
              ? { team: { ...mail, failed: true }, ack: { ...mail, failed: true } }
              : { team: mail, ack: ackDue ? mail : { ...mail, skipped: true } },
        }));
        // The sending instance sends at once; another instance's proposal waits for its next pass (5 s).
        if (lease?.held() === true) void flush();
        return proposal;
      },
      formPath,
      deleteUrl,
      flush,
      sweep,
      sending: () => lease?.held() ?? false,
      // The form's page gives each visitor the form's single-use token (spam.ts), in a cookie only the
      // proposal routes receive, never with another site's post (SameSite=Strict). The page is then
      // the visitor's own: never kept by a shared cache (site/render/responder.ts; docs/proposals.md,
      // « Spam »).
      formCookie: (https) =>
        `${FORM_COOKIE}=${spam.formToken()}; Path=/api/proposals; Max-Age=${String(MAX_FILL_MS / 1000)}; HttpOnly; SameSite=Strict${https ? '; Secure' : ''}`,
    } satisfies ProposalsService);

    app.addHook('onListen', async () => {
      lease = await holdLease({
        leases: app.shared?.leases ?? null,
        name: MAIL_LEASE,
        ms: LEASE_MS,
        checkMs: LEASE_CHECK_MS,
        take: async () => {
          timer = setInterval(() => {
            void tick();
          }, PASS_MS);
          timer.unref();
          void tick();
          await Promise.resolve();
        },
        lose: async () => {
          if (timer !== null) clearInterval(timer);
          timer = null;
          await Promise.resolve();
        },
        warn: (what, why) => {
          warn(
            what === 'lost'
              ? 'propositions : bail perdu, une autre instance envoie les courriels'
              : `propositions : bail non renouvelé (${why ?? ''}), envoi poursuivi`,
          );
        },
      });
    });
    app.addHook('onClose', async () => {
      unwatch();
      await lease?.close();
      await passing;
      mailer?.close();
      await store.close();
    });
    done();
  },
  { name: 'proposals', dependencies: ['sources'] },
);
