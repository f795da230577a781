import {
  DESCRIPTION_KEPT,
  htmlToText,
  lineupNames,
  looksLikeHtml,
  matchLineup,
  place,
  plainDescription,
  unescapeText,
} from './text';

// An event's texts made plain (docs/events.md, « How each property is read »): descriptions in
// HTML, places, line-ups.

const RESIDENCES = [
  { id: 'axonberg', artist: 'Axonberg' },
  { id: 'kalibre-mona-vex', artist: 'Kalibre / Mona Vex' },
  { id: 'dubwise-daniele', artist: 'Danièle Dubwise' },
  { id: 'kiko-lumen-faya', artist: 'Kiko Lumen / Faya Rootz / Dalia Sound' },
  { id: '130E0A', artist: '130E0A' },
];

describe('a description', () => {
  it('keeps a plain text as written: its lines, at most one blank line in a row, no control character', () => {
    expect(plainDescription('  Première ligne  \r\nDeuxième\u0007 ligne\n\n\n\nFin <3 & a < b  ')).toBe(
      'Première ligne\nDeuxième ligne\n\nFin <3 & a < b',
    );
  });

  it('turns HTML into text: lines for <br> and paragraphs, items, tags dropped, entities read', () => {
    expect(looksLikeHtml('Fin <3 & a < b')).toBe(false);
    expect(looksLikeHtml('Une <b>soirée</b>')).toBe(true);
    expect(
      plainDescription(
        '<p>Une <b>soirée</b>&nbsp;au <i>Bocal</i> !</p><p>Avec : A &amp; B</p>Ligne<br>suivante<br><br><ul><li>Un</li><li>Deux</li></ul>&eacute;t&#233; &lt;b&gt;',
      ),
    ).toBe('Une soirée au Bocal !\nAvec : A & B\nLigne\nsuivante\n\n• Un\n• Deux\nété <b>');
  });

  it('drops scripts, styles and comments with their content, and never keeps markup', () => {
    const text = htmlToText(
      '<style>p { color: red }</style><!-- note --><p onclick="alert(1)">Visible</p><script>alert("x")</script><SCRIPT type=x>y</SCRIPT>après<iframe src="https://x"></iframe>',
    );
    expect(text).toBe('Visible\naprès');
    expect(htmlToText('<b>a</b><script>jamais fermé <b>b</b>')).toBe('a');
  });

  it('writes a link’s address after its text, unless the text is the address; Google’s redirects unwrapped', () => {
    expect(
      htmlToText(
        '<a href="https://www.google.com/url?q=https://billetterie.example.org/x&amp;sa=D&amp;ust=1">Billets</a> · <a href="https://billetterie.example.org/y">https://billetterie.example.org/y</a> · <a href="javascript:alert(1)">piège</a> · <a href="mailto:contact@example.org">écrire</a>',
      ),
    ).toBe(
      'Billets (https://billetterie.example.org/x) · https://billetterie.example.org/y · piège · écrire (contact@example.org)',
    );
  });

  it('keeps at most 5,000 characters, and reads a hostile text in one pass', () => {
    const long = plainDescription('a'.repeat(20_000));
    expect(long).toHaveLength(DESCRIPTION_KEPT);
    expect(long.endsWith('…')).toBe(true);
    // Unclosed tags, comments and `<` by the tens of thousands: linear (quadratic would not finish in time).
    for (const hostile of [
      '<a '.repeat(20_000),
      '<!--'.repeat(20_000),
      `${'<'.repeat(25_000)}${'b'.repeat(25_000)}>`,
    ]) {
      expect(typeof plainDescription(`<p>${hostile}`)).toBe('string');
    }
  });

  it('unescapes a TEXT value ical.js leaves as written (X-ALT-DESC)', () => {
    expect(unescapeText('a\\, b\\; c\\\\d\\ne\\Nf')).toBe('a, b; c\\d\ne\nf');
  });
});

describe('a place', () => {
  it('is the venue before the first comma or line, the address after it', () => {
    expect(place('Le Bocal, 8 rue Pharaon, 31000 Toulouse')).toEqual({
      venue: 'Le Bocal',
      address: '8 rue Pharaon, 31000 Toulouse',
    });
    expect(place('Le Quai des Sons\n3 quai de la Daurade\n31000 Toulouse')).toEqual({
      venue: 'Le Quai des Sons',
      address: '3 quai de la Daurade, 31000 Toulouse',
    });
    expect(place('  La Péniche  ')).toEqual({ venue: 'La Péniche', address: null });
    expect(place('')).toEqual({ venue: null, address: null });
    expect(place(', 12 rue X')).toEqual({ venue: null, address: '12 rue X' });
  });
});

describe('a line-up', () => {
  it('is read from the line « Avec : », « avec: », « Avec - », « Line-up : » or « Lineup : », any case', () => {
    expect(lineupNames('Une soirée.\nAvec : Axonberg, Kalibre, DJ Invitée\nEntrée libre.')).toEqual([
      'Axonberg',
      'Kalibre',
      'DJ Invitée',
    ]);
    expect(lineupNames('avec: A & B + C')).toEqual(['A', 'B', 'C']);
    expect(lineupNames('AVEC - A / B · C et D')).toEqual(['A', 'B', 'C', 'D']);
    expect(lineupNames('Line-up : A, B.')).toEqual(['A', 'B']);
    expect(lineupNames('👉 Lineup : A')).toEqual(['A']);
    expect(lineupNames('LINE UP — A')).toEqual(['A']);
    expect(lineupNames('Àvec : A')).toEqual(['A']);
    // « et » only as a word: « Vinyle Vert » and « Etienne » keep theirs.
    expect(lineupNames('Avec : Vinyle Vert et Etienne, Betty')).toEqual(['Vinyle Vert', 'Etienne', 'Betty']);
    // Only the first such line; a sentence that begins with « Avec » is no line-up.
    expect(lineupNames('Avec le soutien de la mairie.\nAvec : A\nAvec : B')).toEqual(['A']);
    expect(lineupNames('Pas de line-up ici.')).toEqual([]);
  });

  it('matches each name to a residence by id or artist, accents, case and spaces ignored; a guest is kept', () => {
    expect(matchLineup(['axonberg', 'DANIELE  dubwise', 'DJ Invitée', '130e0a'], RESIDENCES)).toEqual([
      { name: 'axonberg', residence: 'axonberg' },
      { name: 'DANIELE  dubwise', residence: 'dubwise-daniele' },
      { name: 'DJ Invitée', residence: null },
      { name: '130e0a', residence: '130E0A' },
    ]);
  });

  it('matches each name of an artist « A / B » on its own, and a residence named twice once', () => {
    expect(matchLineup(lineupNames('Avec : Kalibre / Mona Vex, Axonberg'), RESIDENCES)).toEqual([
      { name: 'Kalibre / Mona Vex', residence: 'kalibre-mona-vex' },
      { name: 'Axonberg', residence: 'axonberg' },
    ]);
    expect(matchLineup(['Faya Rootz', 'Selecta Gaïa', 'Dalia Sound', 'Faya Rootz'], RESIDENCES)).toEqual([
      { name: 'Faya Rootz / Dalia Sound', residence: 'kiko-lumen-faya' },
      { name: 'Selecta Gaïa', residence: null },
    ]);
    expect(matchLineup(['Mona Vex'], RESIDENCES)).toEqual([{ name: 'Mona Vex', residence: 'kalibre-mona-vex' }]);
  });

  it('leaves a bracketed note out when matching, keeps the name as written, and a guest once', () => {
    expect(matchLineup(['Axonberg (live)', 'Invitée', 'invitée'], RESIDENCES)).toEqual([
      { name: 'Axonberg (live)', residence: 'axonberg' },
      { name: 'Invitée', residence: null },
    ]);
  });
});
