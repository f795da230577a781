import {
  FEW,
  FIGURES_MILESTONES,
  FIGURES_THRESHOLD,
  LIVE_SOURCES,
  type AudienceFigures,
  type FigureValue,
} from '@collectif/shared/schemas';
import { daysBefore, parisDay, parisDayStart } from './paris';

/**
 * The editor's figures made from the days' counts (docs/figures.md, « For the parts »). Every
 * figure under FIGURES_THRESHOLD leaves here as FEW, never as a number: a resident cannot tell one
 * listener from four, nor, by subtraction, who they were.
 */

export const figure = (count: number): FigureValue => (count >= FIGURES_THRESHOLD ? Math.round(count) : FEW);

/** What the report needs of an episode. */
export interface ReportEpisode {
  slug: string;
  title: string;
  residences: readonly string[];
}

export interface ReportInput {
  /** The residence, or null: the whole radio. */
  residence: string | null;
  now: number;
  /** A day's counts (YYYY-MM-DD). */
  day: (day: string) => Promise<Record<string, number>>;
  episodes: readonly ReportEpisode[];
  /** A residence's name, for its slots. */
  nameOf: (residence: string) => string;
}

const WEEKS = 12;
const SLOTS_MAX = 60;
const CURVE_MAX = 360;
const EPISODES_MAX = 100;
const MOMENTS_MAX = 20;
const RADIO_DAYS = 28;
/** A pause this long splits a residence's minutes of a day into two slots. */
const SLOT_GAP_MIN = 30;

interface Slot {
  day: string;
  residence: string;
  first: number;
  curve: number[];
  sources: Partial<Record<string, number>>;
}

/** A day's slots, from its `slot:<residence>:<minute>` fields. */
function slotsOf(day: string, fields: Record<string, number>): Slot[] {
  const minutes = new Map<string, [number, number][]>();
  for (const [name, value] of Object.entries(fields)) {
    const match = /^slot:([a-z0-9-]+):(\d{1,4})$/.exec(name);
    if (match === null) continue;
    const [, residence = '', minute = '0'] = match;
    minutes.set(residence, [...(minutes.get(residence) ?? []), [Number(minute), value]]);
  }
  const slots: Slot[] = [];
  for (const [residence, list] of minutes) {
    list.sort((a, b) => a[0] - b[0]);
    const sources: Partial<Record<string, number>> = {};
    for (const source of LIVE_SOURCES) {
      const value = fields[`slotsrc:${residence}:${source}`];
      if (value !== undefined) sources[source] = value;
    }
    let current: Slot | null = null;
    for (const [minute, value] of list) {
      if (current === null || minute - (current.first + current.curve.length - 1) > SLOT_GAP_MIN) {
        current = { day, residence, first: minute, curve: [], sources };
        slots.push(current);
      }
      while (current.first + current.curve.length < minute) current.curve.push(0);
      if (current.curve.length < CURVE_MAX) current.curve.push(value);
    }
  }
  return slots;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const peakOf = (slot: Slot) => Math.max(0, ...slot.curve);

/** The Monday of the week of `day` (YYYY-MM-DD). */
function mondayOf(day: string): string {
  const weekday = (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7;
  return daysBefore(day, weekday);
}

export async function audienceReport(input: ReportInput): Promise<AudienceFigures> {
  const today = parisDay(input.now);
  const days: string[] = [];
  for (let back = WEEKS * 7 - 1; back >= 0; back -= 1) days.push(daysBefore(today, back));
  const counts = new Map<string, Record<string, number>>();
  for (const day of days) counts.set(day, await input.day(day));
  const mine = (residence: string) => input.residence === null || residence === input.residence;
  const episodes = input.episodes.filter(
    (episode) => input.residence === null || episode.residences.includes(input.residence),
  );
  const bySlug = new Map(episodes.map((episode) => [episode.slug, episode]));

  const slots: Slot[] = [];
  const plays = new Map<string, { plays: number; embed: number; reached: number[] }>();
  const moments = new Map<string, number>();
  const weekly = new Map<string, { peak: number; plays: number }>();
  const residencesSeen = new Map<string, { peak: number; plays: number }>();
  const bump = (residence: string, peak: number, played: number) => {
    const row = residencesSeen.get(residence) ?? { peak: 0, plays: 0 };
    residencesSeen.set(residence, { peak: Math.max(row.peak, peak), plays: row.plays + played });
  };
  for (const day of days) {
    const fields = counts.get(day) ?? {};
    const week = weekly.get(mondayOf(day)) ?? { peak: 0, plays: 0 };
    for (const slot of slotsOf(day, fields)) {
      bump(slot.residence, peakOf(slot), 0);
      if (!mine(slot.residence)) continue;
      slots.push(slot);
      week.peak = Math.max(week.peak, peakOf(slot));
    }
    if (input.residence === null) {
      for (let hour = 0; hour < 25; hour += 1)
        week.peak = Math.max(week.peak, fields[`live:total:${String(hour)}:peak`] ?? 0);
    }
    for (const [name, value] of Object.entries(fields)) {
      const play = /^(play|embed|reach|moment):([a-z0-9-]+)(?::(\d+))?$/.exec(name);
      if (play === null) continue;
      const [, what = '', slug = '', detail] = play;
      const episode = bySlug.get(slug);
      if (episode === undefined) continue;
      const row = plays.get(slug) ?? { plays: 0, embed: 0, reached: [0, 0, 0, 0] };
      if (what === 'play' || what === 'embed') {
        if (what === 'play') row.plays += value;
        else row.embed += value;
        week.plays += value;
        for (const residence of episode.residences) bump(residence, 0, value);
      } else if (what === 'reach') {
        const at = (FIGURES_MILESTONES as readonly number[]).indexOf(Number(detail));
        if (at >= 0) row.reached[at] = (row.reached[at] ?? 0) + value;
      } else {
        const key = `${slug}|${detail ?? '0'}`;
        moments.set(key, (moments.get(key) ?? 0) + value);
      }
      plays.set(slug, row);
    }
    weekly.set(mondayOf(day), week);
  }

  const report: AudienceFigures = {
    residence: input.residence,
    at: new Date(input.now).toISOString(),
    slots: slots
      .sort((a, b) => (a.day === b.day ? b.first - a.first : a.day < b.day ? 1 : -1))
      .slice(0, SLOTS_MAX)
      .map((slot) => {
        const start = parisDayStart(slot.day) + slot.first * 60_000;
        const sources: AudienceFigures['slots'][number]['sources'] = {};
        for (const source of LIVE_SOURCES) {
          const value = slot.sources[source];
          if (value !== undefined) sources[source] = figure(value);
        }
        return {
          start: new Date(start).toISOString(),
          end: new Date(start + slot.curve.length * 60_000).toISOString(),
          title: input.nameOf(slot.residence),
          residence: slot.residence,
          peak: figure(peakOf(slot)),
          average: figure(sum(slot.curve) / Math.max(1, slot.curve.length)),
          sources,
          curve: slot.curve.map(figure),
        };
      }),
    episodes: [...plays.entries()]
      .filter(([, row]) => row.plays + row.embed > 0 || sum(row.reached) > 0)
      .sort((a, b) => b[1].plays + b[1].embed - (a[1].plays + a[1].embed))
      .slice(0, EPISODES_MAX)
      .map(([slug, row]) => ({
        episode: slug,
        title: bySlug.get(slug)?.title ?? slug,
        plays: figure(row.plays),
        embedPlays: figure(row.embed),
        reached: {
          p25: figure(row.reached[0] ?? 0),
          p50: figure(row.reached[1] ?? 0),
          p75: figure(row.reached[2] ?? 0),
          p100: figure(row.reached[3] ?? 0),
        },
      })),
    moments: [...moments.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MOMENTS_MAX)
      .map(([key, count]) => {
        const [episode = '', second = '0'] = key.split('|');
        return { episode, second: Number(second), plays: figure(count) };
      }),
    trend: [...weekly.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .slice(-WEEKS)
      .map(([week, row]) => ({ week, peak: figure(row.peak), plays: figure(row.plays) })),
  };
  if (input.residence === null) {
    report.days = days.slice(-RADIO_DAYS).map((day) => {
      const fields = counts.get(day) ?? {};
      const hours = (name: string, what: string) => {
        const values: number[] = [];
        for (let hour = 0; hour < 25; hour += 1) {
          const value = fields[`live:${name}:${String(hour)}:${what}`];
          if (value !== undefined) values.push(value);
        }
        return values;
      };
      const sources: AudienceFigures['slots'][number]['sources'] = {};
      for (const source of LIVE_SOURCES) {
        const peaks = hours(source, 'peak');
        if (peaks.length > 0) sources[source] = figure(Math.max(...peaks));
      }
      return {
        day,
        peak: figure(Math.max(0, ...hours('total', 'peak'))),
        average: figure(sum(hours('total', 'sum')) / Math.max(1, sum(hours('total', 'n')))),
        sources,
      };
    });
    report.residences = [...residencesSeen.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([id, row]) => ({ id, peak: figure(row.peak), plays: figure(row.plays) }));
  }
  return report;
}

/**
 * A text cell of the CSV (a residence's name): quoted when it holds a separator, a quote or a line,
 * and never read as a formula by a spreadsheet (a leading =, +, - or @ is written after a quote).
 */
export function textCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A cell of the CSV: the figure, or « moins de 5 ». */
const cell = (count: number) => (count >= FIGURES_THRESHOLD ? String(Math.round(count)) : 'moins de 5');

/**
 * A month's figures as CSV for the association's reports (docs/figures.md): one row a day and a
 * residence (or the whole radio), separated by semicolons as French spreadsheets expect, with a
 * byte-order mark so that they read the accents.
 */
export async function monthCsv(input: Omit<ReportInput, 'now'> & { month: string }): Promise<string> {
  const [year, month] = input.month.split('-').map(Number) as [number, number];
  const rows = [
    [
      'jour',
      'résidence',
      'pic du direct',
      'moyenne du direct',
      'écoutes en replay',
      'écoutes depuis les lecteurs intégrés',
      'écoutes à 25 %',
      'à 50 %',
      'à 75 %',
      'à 100 %',
    ].join(';'),
  ];
  const episodes = new Map(input.episodes.map((episode) => [episode.slug, episode]));
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  for (let date = 1; date <= last; date += 1) {
    const day = `${input.month}-${String(date).padStart(2, '0')}`;
    const fields = await input.day(day);
    const rowsOf = new Map<string, number[]>();
    const rowOf = (name: string) => {
      let row = rowsOf.get(name);
      if (row === undefined) {
        row = [0, 0, 0, 0, 0, 0, 0, 0];
        rowsOf.set(name, row);
      }
      return row;
    };
    for (const slot of slotsOf(day, fields)) {
      if (input.residence !== null && slot.residence !== input.residence) continue;
      const row = rowOf(slot.residence);
      row[0] = Math.max(row[0] ?? 0, peakOf(slot));
      row[1] = Math.max(row[1] ?? 0, sum(slot.curve) / Math.max(1, slot.curve.length));
    }
    for (const [name, value] of Object.entries(fields)) {
      const play = /^(play|embed|reach):([a-z0-9-]+)(?::(\d+))?$/.exec(name);
      if (play === null) continue;
      const [, what = '', slug = '', detail] = play;
      const owners = episodes.get(slug)?.residences ?? [];
      for (const residence of owners) {
        if (input.residence !== null && residence !== input.residence) continue;
        const row = rowOf(residence);
        const at =
          what === 'play'
            ? 2
            : what === 'embed'
              ? 3
              : 4 + (FIGURES_MILESTONES as readonly number[]).indexOf(Number(detail));
        if (at >= 2 && at < 8) row[at] = (row[at] ?? 0) + value;
      }
    }
    if (input.residence === null) {
      const peaks: number[] = [];
      let total = 0;
      let samples = 0;
      let played = 0;
      let embedded = 0;
      for (const [name, value] of Object.entries(fields)) {
        if (/^live:total:\d+:peak$/.test(name)) peaks.push(value);
        else if (/^live:total:\d+:sum$/.test(name)) total += value;
        else if (/^live:total:\d+:n$/.test(name)) samples += value;
        else if (name.startsWith('play:')) played += value;
        else if (name.startsWith('embed:')) embedded += value;
      }
      if (peaks.length > 0 || played + embedded > 0) {
        rows.push(
          [
            day,
            'toute la radio',
            cell(Math.max(0, ...peaks)),
            cell(total / Math.max(1, samples)),
            cell(played),
            cell(embedded),
            '',
            '',
            '',
            '',
          ].join(';'),
        );
      }
    }
    for (const [residence, row] of [...rowsOf.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      rows.push([day, textCell(input.nameOf(residence)), ...row.map(cell)].join(';'));
    }
  }
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}
