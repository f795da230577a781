import type { ScheduleEvent } from '@collectif/shared';
import { cameOnAir, frenchList, notSaidLately, onAirText, QUIET_MS, residenceNamed, residencesOnAir } from './onAir';

const residences = [
  { id: 'axonberg', artist: 'Axonberg', show: 'Synapses' },
  { id: 'sister-sub', artist: 'Sister Sub / Lina Dub', show: 'Version Pastel' },
  { id: 'rumba-fantome', artist: 'Rumba Fantôme', show: 'Tropiques Hantés' },
  { id: 'quartz', artist: 'Quartz', show: 'Oscillations' },
];

const show = (residence: string | null, start: string, end: string): ScheduleEvent => ({
  id: `${residence ?? 'invite'}/${start}`,
  title: 'Un titre',
  start,
  end,
  allDay: false,
  residence,
});

describe('the residence now-playing names', () => {
  it('is the one whose artist, or one of its names, the radio gives, accents and case aside', () => {
    expect(residenceNamed('Axonberg', residences)).toBe('axonberg');
    expect(residenceNamed('  AXONBERG ', residences)).toBe('axonberg');
    expect(residenceNamed('Rumba Fantome', residences)).toBe('rumba-fantome');
    expect(residenceNamed('Sister Sub / Lina Dub', residences)).toBe('sister-sub');
    expect(residenceNamed('Lina Dub', residences)).toBe('sister-sub');
    expect(residenceNamed('Invitée / Axonberg', residences)).toBe('axonberg');
  });

  it('is none for another artist, a longer name, or nothing known', () => {
    for (const artist of ['Quartz Ensemble', 'Axonberger', 'Inconnu', '', ' / ']) {
      expect([artist, residenceNamed(artist, residences)]).toEqual([artist, null]);
    }
  });
});

describe('the residences on air', () => {
  const now = Date.parse('2026-11-25T19:30:00.000Z');
  it('are the programme’s show on air and the one now-playing names', () => {
    const events = [
      show('quartz', '2026-11-25T19:00:00.000Z', '2026-11-25T21:00:00.000Z'),
      show('axonberg', '2026-11-25T21:00:00.000Z', '2026-11-25T23:00:00.000Z'),
    ];
    expect(residencesOnAir({ artist: 'Lina Dub', title: '' }, residences, events, now)).toEqual(
      new Set(['quartz', 'sister-sub']),
    );
    // From its first minute; not after its end.
    expect(residencesOnAir(undefined, residences, events, Date.parse('2026-11-25T21:00:00.000Z'))).toEqual(
      new Set(['axonberg']),
    );
    expect(residencesOnAir(undefined, residences, events, Date.parse('2026-11-25T23:00:00.000Z'))).toEqual(new Set());
    // A guest's show is no residence's.
    expect(
      residencesOnAir(undefined, residences, [show(null, '2026-11-25T19:00:00.000Z', '2026-11-25T20:00:00.000Z')], now),
    ).toEqual(new Set());
  });
});

describe('going on air', () => {
  it('is a followed residence on air now that was not at the reading before; the first reading says nothing', () => {
    const followed = ['axonberg', 'quartz'];
    expect(cameOnAir(null, new Set(['axonberg']), followed)).toEqual([]);
    expect(cameOnAir(new Set(), new Set(['axonberg', 'sister-sub']), followed)).toEqual(['axonberg']);
    expect(cameOnAir(new Set(['axonberg']), new Set(['axonberg']), followed)).toEqual([]);
    expect(cameOnAir(new Set(['axonberg']), new Set(['axonberg', 'quartz']), followed)).toEqual(['quartz']);
    // Off air, then on again: said again.
    expect(cameOnAir(new Set(), new Set(['axonberg']), followed)).toEqual(['axonberg']);
  });

  it('is not said again within half an hour', () => {
    const said = new Map<string, number>();
    const at = Date.parse('2026-11-25T19:00:00.000Z');
    expect(notSaidLately(['axonberg'], said, at)).toEqual(['axonberg']);
    expect(notSaidLately(['axonberg', 'quartz'], said, at + QUIET_MS - 1)).toEqual(['quartz']);
    expect(notSaidLately(['axonberg'], said, at + QUIET_MS)).toEqual(['axonberg']);
    expect(QUIET_MS).toBe(30 * 60 * 1000);
  });

  it('is said in French', () => {
    expect(onAirText(['Axonberg'])).toBe('Axonberg est en direct');
    expect(onAirText(['Axonberg', 'Quartz'])).toBe('Axonberg et Quartz sont en direct');
  });
});

describe('frenchList', () => {
  it('joins names as Intl.ListFormat’s French conjunction does, without starting ICU on the page', () => {
    const intl = new Intl.ListFormat('fr-FR', { type: 'conjunction' });
    const names = ['Axonberg', 'Quartz', 'La Brume', 'Velours'];
    for (let count = 0; count <= names.length; count += 1) {
      expect(frenchList(names.slice(0, count))).toBe(intl.format(names.slice(0, count)));
    }
  });
});
