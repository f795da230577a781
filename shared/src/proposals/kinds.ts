import { siteConfig } from '@collectif/shared';
import type { PageModule } from '../addresses/paths';
import { PAGES } from '../addresses/paths';
import type { ProposalKind } from './api';

/** What each kind of proposal's page says and where it lives (docs/proposals.md, « The pages »). */
export interface KindText {
  kind: ProposalKind;
  page: PageModule;
  title: string;
  intro: string;
  /** What happens next, and when. */
  next: string;
  /** The collective's address of this kind, for those who prefer an e-mail. */
  email: string;
  nameLabel: string;
  makersLabel: string;
  linksLabel: string;
  linksHint: string;
  /** Shows only: how often and when they could play. */
  when: boolean;
  send: string;
  what: string;
}

export const KINDS: Record<ProposalKind, KindText> = {
  emission: {
    kind: 'emission',
    page: PAGES.proposeShow,
    title: 'Proposer une émission',
    intro:
      'Vous faites une émission, un mix, une résidence en devenir ? Présentez-la à l’équipe de programmation : la radio est ouverte à toutes les musiques et aux paroles de Toulouse et d’ailleurs.',
    next: 'Nous écoutons chaque proposition ; vous recevez une réponse sous trois semaines.',
    email: siteConfig.emails.shows,
    nameLabel: 'Nom de l’émission',
    makersLabel: 'Qui la fait',
    linksLabel: 'Liens pour écouter',
    linksHint: 'De 2 à 5 adresses https:// (SoundCloud, Mixcloud, Bandcamp, un hébergeur de fichiers), une par ligne.',
    when: true,
    send: 'Envoyer la proposition',
    what: 'proposition d’émission',
  },
  demo: {
    kind: 'demo',
    page: PAGES.sendDemo,
    title: 'Envoyer une démo',
    intro:
      'Vous cherchez un label pour un premier disque, un EP, un live ? Envoyez votre démo à l’équipe du label : nous écoutons tout, jusqu’au bout.',
    next: 'L’équipe du label écoute chaque démo ; vous recevez une réponse sous un mois.',
    email: siteConfig.emails.labelDemos,
    nameLabel: 'Nom du projet',
    makersLabel: 'Qui le fait',
    linksLabel: 'Liens vers la démo',
    linksHint: 'De 2 à 5 adresses https:// (SoundCloud, Bandcamp, un hébergeur de fichiers), une par ligne.',
    when: false,
    send: 'Envoyer la démo',
    what: 'démo',
  },
};

/** The fields of the form, in its order, as the API names them. */
export const FIELD_ORDER = ['name', 'makers', 'style', 'links', 'when', 'email', 'message'] as const;
export type FieldName = (typeof FIELD_ORDER)[number];

/** The bounds the server applies (docs/proposals.md, « What is kept »), said to the browser too. */
export const FIELD_MAX: Record<FieldName, number> = {
  name: 120,
  makers: 200,
  style: 120,
  links: 5 * 501,
  when: 300,
  email: 254,
  message: 4000,
};

export { NUMBER_PATTERN } from './number';
