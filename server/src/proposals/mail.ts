import nodemailer from 'nodemailer';
import { siteConfig } from '@collectif/shared/config';
import type { ProposalsConfig } from './config';
import type { MailState, Proposal } from './store';

/**
 * The proposals' e-mails (docs/proposals.md, « E-mail »): for each new proposal, one to the
 * collective's address of its kind and one acknowledgement to the proposer, both in French, plain
 * text. The proposal is stored first; the mails leave from a queue (queue.ts), so a mail server down
 * or slow never loses one.
 *
 * Headers: nodemailer encodes every header it writes (a name becomes an encoded word, never a line of
 * its own), and the fields that reach a header (the name in the subject, the e-mail in To and
 * Reply-To) were already refused with a CR or LF and checked for their form (fields.ts).
 */

export type MailName = 'team' | 'ack';
export const MAIL_NAMES: readonly MailName[] = ['team', 'ack'];

export interface MailMessage {
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
}

const WHAT = { emission: 'proposition d’émission', demo: 'démo' } as const;

/** The message to the collective: every field, as text, and where to read it in the editor. */
export function teamMessage(proposal: Proposal, to: string, editorUrl: string): MailMessage {
  const show = proposal.kind === 'emission';
  const lines = [
    `Nouvelle ${WHAT[proposal.kind]} reçue sur le site : ${proposal.number}.`,
    '',
    `${show ? 'Émission' : 'Projet'} : ${proposal.name}`,
    `Qui la fait : ${proposal.makers}`,
    `Style : ${proposal.style}`,
    ...(proposal.when === undefined ? [] : [`Rythme et disponibilités : ${proposal.when}`]),
    `Contact : ${proposal.email}`,
    '',
    'Liens pour écouter :',
    ...proposal.links.map((link) => `- ${link}`),
    '',
    'Message :',
    proposal.message === '' ? '(aucun)' : proposal.message,
    '',
    `À lire, suivre et annoter dans l’éditeur, « Propositions » : ${editorUrl}`,
    'Répondre à ce courriel écrit à la personne qui propose.',
  ];
  return {
    to,
    replyTo: proposal.email,
    subject: `Nouvelle ${WHAT[proposal.kind]} ${proposal.number} : ${proposal.name}`,
    text: `${lines.join('\n')}\n`,
  };
}

/**
 * The acknowledgement: the number to quote, what happens next, and the deletion link. It goes to an
 * address typed by whoever filled the form, so it carries nothing they typed (no name, no message):
 * the collective's fixed text, the number and the link the server made (docs/proposals.md, « E-mail »).
 */
export function ackMessage(proposal: Proposal, deleteUrl: string): MailMessage {
  const show = proposal.kind === 'emission';
  const lines = [
    'Bonjour,',
    '',
    `Merci ! Votre ${WHAT[proposal.kind]} est bien arrivée chez ${siteConfig.name}.`,
    `Son numéro : ${proposal.number}. Rappelez-le si vous nous écrivez à son sujet.`,
    '',
    show
      ? 'L’équipe de programmation écoute chaque proposition ; une personne de l’équipe vous répond, en général dans le mois.'
      : 'L’équipe du label écoute chaque démo ; une personne de l’équipe vous répond, en général dans le mois.',
    '',
    'Votre proposition est gardée douze mois au plus, puis effacée.',
    `Pour l’effacer dès maintenant : ${deleteUrl}`,
    '',
    `— ${siteConfig.name}`,
    '',
    'Ce courriel est envoyé automatiquement : vous l’avez reçu parce que cette adresse a été donnée dans le formulaire du site. Si ce n’est pas vous, le lien ci-dessus efface la proposition ; cette adresse ne reçoit pas plus d’un tel courriel par jour.',
  ];
  return {
    to: proposal.email,
    subject: `${siteConfig.name} : votre ${WHAT[proposal.kind]} ${proposal.number} est bien arrivée`,
    text: `${lines.join('\n')}\n`,
  };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** A mailer over SMTP (nodemailer), bounded in time: a slow server fails the try, which is retried. */
export function createMailer(smtp: NonNullable<ProposalsConfig['smtp']>, timeoutMs = 10_000): Mailer {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user === undefined ? {} : { auth: { user: smtp.user, pass: smtp.password ?? '' } }),
    // To connect, to be greeted, then of silence in the exchange.
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: 2 * timeoutMs,
  });
  return {
    async send(message) {
      await transport.sendMail({
        from: { name: siteConfig.name, address: smtp.from },
        to: message.to,
        ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
        subject: message.subject,
        text: message.text,
        // No header of the message is taken from the public but through these fields.
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    },
    close() {
      transport.close();
    },
  };
}

/** The wait before the next try: 30 s, doubling, one hour at most (docs/proposals.md, « E-mail »). */
export const backoffMs = (tries: number): number => Math.min(30_000 * 2 ** Math.max(0, tries - 1), 3600_000);

/** A mail to send now, not sent and not given up. */
export const due = (mail: MailState, at: number): boolean =>
  !mail.sent && mail.failed !== true && mail.skipped !== true && mail.nextAt <= at;

/**
 * « Répondre » in the editor (docs/proposals.md, « The editor »): the subject and the French text a
 * volunteer's own mail client opens with, chosen by the proposal's state, so that the answer leaves
 * from a real person. A text to start from: the volunteer edits it before sending.
 */
export function replyOf(proposal: Proposal): { subject: string; text: string } {
  const what = proposal.kind === 'emission' ? 'votre proposition d’émission' : 'votre démo';
  const subject = `${siteConfig.name} : ${what} ${proposal.number} (${proposal.name})`;
  const body =
    proposal.state === 'retenue'
      ? [
          `Merci pour ${what} « ${proposal.name} » : nous l’avons écoutée avec plaisir, et nous aimerions aller plus loin avec vous.`,
          '',
          'Pouvez-vous nous dire quand vous êtes disponibles pour en parler ?',
        ]
      : proposal.state === 'déclinée'
        ? [
            `Merci pour ${what} « ${proposal.name} » : nous l’avons écoutée avec attention.`,
            '',
            'Elle ne trouvera pas sa place chez nous pour le moment. Ce n’est pas un jugement sur votre travail : nos créneaux et nos sorties sont peu nombreux.',
            '',
            'N’hésitez pas à nous proposer vos prochains projets.',
          ]
        : [`Merci pour ${what} « ${proposal.name} ».`, ''];
  return { subject, text: ['Bonjour,', '', ...body, '', `— ${siteConfig.name}`, ''].join('\n') };
}
