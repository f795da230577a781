import type { PageDefinition, PageRoute, RemoteContract } from '@collectif/shared';
import { proposalPageModule } from '@collectif/shared/proposals';

/*
 * /proposer-une-emission (issue 73, docs/proposals.md « The pages »): the form, its « Merci ! » at
 * /merci and the proposer's deletion at /supprimer, the addresses the server's answers and e-mails
 * lead to. The page and its form are a helper shared with the label's « Envoyer une démo ».
 */

const { Page: ProposeShowPage, page: definition } = proposalPageModule('emission');

export default ProposeShowPage satisfies RemoteContract['radio']['ProposeShowPage'];

export const page: PageDefinition = definition;

/** Its addresses and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = [
  {
    path: 'proposer-une-emission',
    title: 'Proposer une émission',
    description: 'Proposer une émission à la radio du collectif : le formulaire, et la réponse sous trois semaines.',
    area: 'La page Proposer une émission',
  },
  {
    path: 'proposer-une-emission/merci',
    title: 'Merci ! · Proposer une émission',
    area: 'La page Proposer une émission',
    back: 'proposer-une-emission',
    noindex: true,
  },
  {
    path: 'proposer-une-emission/supprimer',
    title: 'Retirer une proposition',
    area: 'La page Proposer une émission',
    back: 'proposer-une-emission',
    noindex: true,
  },
];
