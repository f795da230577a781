import type { AboutTexts, TeamMember } from '@collectif/shared';

/**
 * About's texts and team, read back from the page the server rendered (docs/rendering.md, « The
 * store's state in the page »): they are in its HTML, so the server leaves them out of its state
 * (`page.fromHtml`), and the browser hydrates the page from what it reads here. The inverse of
 * `AboutView` (exposed/AboutPage.tsx): its test renders the page and reads every field back.
 */

export interface AboutContent {
  texts: AboutTexts;
  team: TeamMember[];
}

/** Something the page should have is not there: the page is not the one `AboutView` renders. */
class Missing extends Error {}

function one(scope: ParentNode, selector: string): Element {
  const found = scope.querySelector(selector);
  if (found === null) throw new Missing(selector);
  return found;
}

const all = (scope: ParentNode, selector: string): Element[] => [...scope.querySelectorAll(selector)];

function filled(value: string | null | undefined, what: string): string {
  if (value === null || value === undefined || value === '') throw new Missing(what);
  return value;
}

const textOf = (element: Element): string => filled(element.textContent, element.tagName);
const text = (scope: ParentNode, selector: string): string => textOf(one(scope, selector));
const attribute = (scope: ParentNode, selector: string, name: string): string =>
  filled(one(scope, selector).getAttribute(name), `${selector}[${name}]`);
const texts = (scope: ParentNode, selector: string): string[] => all(scope, selector).map(textOf);

/** A link's own words, without what `ExternalLink` adds for screen readers (« (nouvel onglet) »). */
function linkText(scope: ParentNode, selector: string): string {
  const link = one(scope, selector);
  const own = [...link.childNodes].filter((node) => node.nodeType === 3).map((node) => node.textContent ?? '');
  return filled(own.join(''), selector);
}

const image = (scope: ParentNode) => ({
  src: attribute(scope, 'img.about-image', 'src'),
  alt: attribute(scope, 'img.about-image', 'alt'),
});

/** A section's body (`RevealSection`) and its heading. */
function section(root: ParentNode, id: string): { body: Element; heading: string } {
  const body = one(root, `section#${id} > .about-section__body`);
  return { body, heading: text(body, `h2#${id}-titre`) };
}

/** The words after each figure of a `StatList`, in the order the page shows them. */
function statWords<K extends string>(list: Element, names: readonly K[]): Record<K, string> {
  const words = texts(list, '.stats__label');
  if (words.length !== names.length) throw new Missing('.stats__label');
  return Object.fromEntries(names.map((name, index) => [name, words[index]])) as Record<K, string>;
}

/** The sentence `EmbedFacade` writes around its provider's name. */
const PROVIDER = /^Fourni par (.+) : rien n'est chargé depuis ce service avant votre clic\.$/;

function readPage(root: ParentNode): AboutContent {
  const page = one(root, '.about-page');
  const intro = one(page, 'header.about-intro');

  const collective = section(page, 'collectif');
  const values = section(page, 'valeurs');
  const etymology = section(page, 'nom');
  const indicators = section(page, 'reperes');
  const webradio = section(page, 'webradio');
  const label = section(page, 'label');
  const events = section(page, 'evenements');
  const funding = section(page, 'autofinancement');
  const studio = section(page, 'studio');
  const team = section(page, 'equipe');
  const contact = section(page, 'contact');
  const support = section(page, 'soutien');
  const credits = section(page, 'credits');
  const [created, location] = texts(indicators.body, 'dl.indicators dt');
  const [contactLabel, showsLabel, demosLabel] = texts(contact.body, 'dl.about-contacts dt');
  const note = PROVIDER.exec(text(studio.body, '.embed__note'))?.[1];

  const texts_: AboutTexts = {
    heading: text(intro, 'h1'),
    intro: { statement: text(intro, '.about-intro__statement'), image: image(intro) },
    collective: { heading: collective.heading, paragraphs: texts(collective.body, ':scope > p') },
    values: {
      heading: values.heading,
      items: all(values.body, '.about-values > li').map((item) => ({ title: text(item, 'h3'), text: text(item, 'p') })),
    },
    etymology: { heading: etymology.heading, paragraphs: texts(etymology.body, ':scope > p') },
    indicators: {
      heading: indicators.heading,
      createdLabel: filled(created, 'createdLabel'),
      locationLabel: filled(location, 'locationLabel'),
    },
    webradio: {
      heading: webradio.heading,
      paragraphs: texts(webradio.body, ':scope > div > p'),
      replayLink: linkText(webradio.body, ':scope > div > a'),
      statsLabel: attribute(webradio.body, 'ul.stats', 'aria-label'),
      stats: statWords(one(webradio.body, 'ul.stats'), ['residencies', 'streams', 'liveSessions'] as const),
      image: image(webradio.body),
    },
    label: {
      heading: label.heading,
      paragraphs: texts(label.body, ':scope > div > p'),
      stylesLabel: attribute(label.body, 'ul.about-tags', 'aria-label'),
      styles: texts(label.body, 'ul.about-tags > li'),
      statsLabel: attribute(label.body, 'ul.stats', 'aria-label'),
      stats: statWords(one(label.body, 'ul.stats'), ['releases', 'artists'] as const),
      image: image(label.body),
    },
    events: {
      heading: events.heading,
      paragraphs: texts(events.body, ':scope > div > p'),
      statsLabel: attribute(events.body, 'ul.stats', 'aria-label'),
      stats: statWords(one(events.body, 'ul.stats'), ['productions', 'thisYear'] as const),
      link: linkText(events.body, ':scope > div > a'),
      image: image(events.body),
    },
    funding: {
      heading: funding.heading,
      paragraphs: texts(funding.body, ':scope > p'),
      sourcesLabel: attribute(funding.body, 'ul.about-list', 'aria-label'),
      sources: texts(funding.body, 'ul.about-list > li'),
    },
    studio: {
      heading: studio.heading,
      paragraphs: texts(studio.body, ':scope > p'),
      mapTitle: text(studio.body, '.embed__name'),
      mapProvider: filled(note, '.embed__note'),
      showMap: text(studio.body, '.embed__actions > button'),
      openMap: linkText(studio.body, '.embed__actions > a'),
    },
    team: {
      heading: team.heading,
      intro: text(team.body, ':scope > p'),
      stripLabel: attribute(team.body, '.team__strip', 'aria-label'),
      previous: attribute(team.body, '.team__button:first-child', 'aria-label'),
      next: attribute(team.body, '.team__button:last-child', 'aria-label'),
    },
    contact: {
      heading: contact.heading,
      intro: text(contact.body, ':scope > p'),
      labels: {
        contact: filled(contactLabel, 'contact'),
        shows: filled(showsLabel, 'shows'),
        labelDemos: filled(demosLabel, 'labelDemos'),
      },
    },
    support: {
      heading: support.heading,
      paragraphs: texts(support.body, ':scope > p'),
      button: linkText(support.body, ':scope > a'),
    },
    credits: {
      heading: credits.heading,
      items: all(credits.body, '.about-credits > div').map((item) => ({
        role: text(item, 'dt'),
        name: text(item, 'dd'),
      })),
    },
  };
  const members = all(team.body, '.team-card').map((card) => ({
    imagePath: attribute(card, 'img', 'src'),
    title: text(card, '.team-card__name'),
    description: text(card, '.team-card__roles'),
  }));
  return { texts: texts_, team: members };
}

/** What the About page shows, read from `root`; null when it is not the page `AboutView` renders. */
export function readAboutPage(root: ParentNode): AboutContent | null {
  try {
    return readPage(root);
  } catch (error) {
    if (error instanceof Missing) return null;
    throw error;
  }
}

let served: AboutContent | null | undefined;

/**
 * What the server's page showed, read once, before React has changed anything of it: the page this
 * visit started on, in the browser (null elsewhere, on the server, and on a page that is not About).
 */
export function servedAbout(): AboutContent | null {
  if (served === undefined) served = typeof document === 'undefined' ? null : readAboutPage(document);
  return served;
}
