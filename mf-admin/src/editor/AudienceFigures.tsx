import { Fragment, useId, useState, type ReactNode } from 'react';
import {
  apiUrl,
  audienceFiguresAnswer,
  FEW,
  readWith,
  useResidencesQuery,
  type AudienceFigures as Figures,
  type FigureValue,
} from '@collectif/shared';
import { formatTime } from '@collectif/shared/time';
import type { Me } from './call';
import { FigureTable } from './FigureTable';
import { ListenersSetting } from './ListenersSetting';
import { useFigures } from './useFigures';
import './audience.css';

/*
 * The audience part of « Mes chiffres » (docs/content.md, « Mes chiffres »; docs/figures.md): a
 * resident sees their residence's, an admin any residence's or the whole radio's, and turns
 * « N à l'écoute » on or off. Every figure comes from the server already rounded to « moins de 5 »
 * under the threshold: this page never sees a smaller number.
 */

const ZONE = 'Europe/Paris';
const dayFormat = new Intl.DateTimeFormat('fr-FR', {
  timeZone: ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});
const hourFormat = new Intl.DateTimeFormat('fr-FR', { timeZone: ZONE, hour: '2-digit', minute: '2-digit' });
const weekFormat = new Intl.DateTimeFormat('fr-FR', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const numberFormat = new Intl.NumberFormat('fr-FR');

/** A figure as the panel says it: a number, or « moins de 5 » as the server sent it. */
export const said = (figure: FigureValue): string => (figure === FEW ? 'moins de 5' : numberFormat.format(figure));
const valueOf = (figure: FigureValue): number => (figure === FEW ? 0 : figure);

/** A day (YYYY-MM-DD) as « 3 nov. ». */
const dayOf = (day: string): string => weekFormat.format(new Date(`${day}T12:00:00Z`));

/** The month of an instant in Paris, YYYY-MM: the CSV's first choice is the month the server read the figures in. */
const monthOf = (at: string): string => {
  const instant = Date.parse(at);
  return new Intl.DateTimeFormat('fr-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit' }).format(
    Number.isNaN(instant) ? Date.now() : instant,
  );
};

const SOURCE_NAMES = {
  azuracast: 'AzuraCast',
  icecast: 'Icecast',
  player: 'lecteur du site',
  timeline: 'écoute en différé',
} as const;

/** The peak of each source that gave one: « lecteur du site 12, Icecast moins de 5 ». */
function sourcesOf(sources: Partial<Record<keyof typeof SOURCE_NAMES, FigureValue>>): string {
  const named = (Object.keys(SOURCE_NAMES) as (keyof typeof SOURCE_NAMES)[]).flatMap((source) => {
    const figure = sources[source];
    return figure === undefined ? [] : [`${SOURCE_NAMES[source]} ${said(figure)}`];
  });
  return named.length === 0 ? 'aucune' : named.join(', ');
}

/** The answer read: its shape checked, or a French failure (it is input, docs/content.md). */
export function readAudience(data: unknown): Figures {
  const read = readWith(audienceFiguresAnswer, data);
  if ('error' in read)
    throw new Error('Les chiffres d’audience reçus du site sont illisibles : réessayez dans un instant.');
  const figures = read.value;
  // Bounded as the server bounds them (docs/figures.md, « For the parts »): more is dropped, never drawn.
  return {
    ...figures,
    slots: figures.slots.slice(0, BOUNDS.slots).map((slot) => ({ ...slot, curve: slot.curve.slice(0, BOUNDS.curve) })),
    episodes: figures.episodes.slice(0, BOUNDS.episodes),
    moments: figures.moments.slice(0, BOUNDS.moments),
    trend: figures.trend.slice(-BOUNDS.weeks),
    ...(figures.days === undefined ? {} : { days: figures.days.slice(-BOUNDS.days) }),
    ...(figures.residences === undefined ? {} : { residences: figures.residences.slice(0, BOUNDS.residences) }),
  };
}

/** The most of each the panel draws: the server's own bounds, and far more residences than the site has. */
const BOUNDS = { slots: 60, curve: 360, episodes: 100, moments: 20, weeks: 12, days: 28, residences: 500 };

type Slot = Figures['slots'][number];

/** A table wider than a phone scrolls in its own box, which the keyboard can reach. */
function Scroll({ children }: { children: ReactNode }) {
  return (
    <div className="admin-audience__scroll" tabIndex={0}>
      {children}
    </div>
  );
}

/**
 * A slot's curve, minute by minute: a line for the eye, and for everyone the same figures said in
 * words (its summary) and in a table under « Minute par minute ».
 */
function Curve({ slot }: { slot: Slot }) {
  const { curve } = slot;
  if (curve.length < 2) return null;
  const top = Math.max(5, ...curve.map(valueOf));
  const width = 120;
  const height = 28;
  const points = curve
    .map((figure, minute) => {
      const x = (minute / (curve.length - 1)) * width;
      const y = height - (valueOf(figure) / top) * (height - 2) - 1;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
  const start = Date.parse(slot.start);
  return (
    <>
      <svg
        className="admin-curve"
        viewBox={`0 0 ${String(width)} ${String(height)}`}
        aria-hidden="true"
        focusable="false"
      >
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      <details className="admin-curve__detail">
        <summary>Minute par minute</summary>
        <Scroll>
          <FigureTable
            caption={<>Auditeurs minute par minute, {slot.title}</>}
            columns={['Heure', 'Auditeurs']}
            rows={curve.map((figure, minute) => ({
              key: minute,
              head: hourFormat.format(start + minute * 60_000),
              cells: [said(figure)],
            }))}
          />
        </Scroll>
      </details>
    </>
  );
}

function Slots({ slots }: { slots: Slot[] }) {
  if (slots.length === 0) return <p>Aucun auditeur du direct compté sur les 12 dernières semaines.</p>;
  return (
    <Scroll>
      <FigureTable
        caption="Le direct, créneau par créneau (12 dernières semaines)"
        columns={['Créneau', 'Pic', 'Moyenne', 'Courbe']}
        rows={slots.map((slot) => ({
          key: slot.start,
          head: (
            <>
              {dayFormat.format(Date.parse(slot.start))}, {hourFormat.format(Date.parse(slot.start))}–
              {hourFormat.format(Date.parse(slot.end))}
              <span className="admin-field__hint">
                {slot.title} · sources : {sourcesOf(slot.sources)}
              </span>
            </>
          ),
          cells: [said(slot.peak), said(slot.average), <Curve key="courbe" slot={slot} />],
        }))}
      />
    </Scroll>
  );
}

function Episodes({ figures }: { figures: Figures }) {
  const titles = new Map(figures.episodes.map((episode) => [episode.episode, episode.title]));
  return (
    <>
      {figures.episodes.length === 0 ? (
        <p>Aucune réécoute comptée sur les 12 dernières semaines.</p>
      ) : (
        <Scroll>
          <FigureTable
            caption="Réécoutes des épisodes et jusqu’où elles sont allées (12 dernières semaines)"
            columns={['Épisode', 'Lancées sur le site', 'Lecteurs intégrés', '25 %', '50 %', '75 %', 'Jusqu’au bout']}
            rows={figures.episodes.map((episode) => ({
              key: episode.episode,
              head: episode.title,
              cells: [
                said(episode.plays),
                said(episode.embedPlays),
                said(episode.reached.p25),
                said(episode.reached.p50),
                said(episode.reached.p75),
                said(episode.reached.p100),
              ],
            }))}
          />
        </Scroll>
      )}
      {figures.moments.length === 0 ? null : (
        <Scroll>
          <FigureTable
            caption="Les moments les plus lancés (liens ?t=, lignes des listes de titres)"
            columns={['Épisode', 'Moment', 'Lancements']}
            rows={figures.moments.map((moment) => ({
              key: `${moment.episode}:${String(moment.second)}`,
              head: titles.get(moment.episode) ?? moment.episode,
              cells: [formatTime(moment.second), said(moment.plays)],
            }))}
          />
        </Scroll>
      )}
    </>
  );
}

function Trend({ trend }: { trend: Figures['trend'] }) {
  const top = Math.max(5, ...trend.map((week) => valueOf(week.plays)), ...trend.map((week) => valueOf(week.peak)));
  return (
    <Scroll>
      <FigureTable
        className="admin-trend"
        caption="Les 12 dernières semaines"
        columns={['Semaine du', 'Pic du direct', 'Réécoutes']}
        rows={trend.map((week) => ({
          key: week.week,
          head: dayOf(week.week),
          cells: [week.peak, week.plays].map((figure, at) => (
            <Fragment key={at}>
              <span className="admin-trend__bar" style={{ inlineSize: `${String((valueOf(figure) / top) * 100)}%` }} />
              {said(figure)}
            </Fragment>
          )),
        }))}
      />
    </Scroll>
  );
}

/** The whole radio's days and residences (admins, without a residence chosen). */
function Radio({ figures, names }: { figures: Figures; names: Map<string, string> }) {
  return (
    <>
      {figures.days === undefined || figures.days.length === 0 ? null : (
        <Scroll>
          <FigureTable
            caption="Le direct de toute la radio, jour par jour (28 derniers jours)"
            columns={['Jour', 'Pic', 'Moyenne', 'Pic par source']}
            rows={figures.days.map((day) => ({
              key: day.day,
              head: dayOf(day.day),
              cells: [said(day.peak), said(day.average), sourcesOf(day.sources)],
            }))}
          />
        </Scroll>
      )}
      {figures.residences === undefined || figures.residences.length === 0 ? null : (
        <Scroll>
          <FigureTable
            caption="Chaque résidence sur les 12 dernières semaines"
            columns={['Résidence', 'Pic du direct', 'Réécoutes']}
            rows={figures.residences.map((row) => ({
              key: row.id,
              head: names.get(row.id) ?? row.id,
              cells: [said(row.peak), said(row.plays)],
            }))}
          />
        </Scroll>
      )}
    </>
  );
}

/** The month's CSV: a link the browser downloads with the volunteer's session. */
function MonthCsv({ residence, initial }: { residence: string | null; initial: string }) {
  const monthId = useId();
  const [month, setMonth] = useState(initial);
  const query = new URLSearchParams({ month, ...(residence === null ? {} : { residence }) });
  const valid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  return (
    <div className="admin-field admin-csv">
      <label htmlFor={monthId}>Mois à télécharger</label>
      <input
        id={monthId}
        type="month"
        value={month}
        onChange={(event) => {
          setMonth(event.target.value);
        }}
      />
      {valid ? (
        <a className="button button--ghost" href={apiUrl(`/editor/figures/audience.csv?${query.toString()}`)} download>
          Télécharger le mois (CSV)
        </a>
      ) : (
        <p className="admin-field__hint">Choisissez un mois (AAAA-MM) pour le télécharger.</p>
      )}
    </div>
  );
}

function Report({ residence, names }: { residence: string | null; names: Map<string, string> }) {
  const query = residence === null ? '' : `?residence=${encodeURIComponent(residence)}`;
  const { figures, status } = useFigures(
    `/editor/figures/audience${query}`,
    readAudience,
    'Chargement de l’audience ...',
  );
  if (figures === null) return status;
  return (
    <>
      <h4>Le direct</h4>
      <Slots slots={figures.slots} />
      <h4>Les réécoutes</h4>
      <Episodes figures={figures} />
      <h4>La tendance</h4>
      <Trend trend={figures.trend} />
      {residence === null ? <Radio figures={figures} names={names} /> : null}
      <MonthCsv residence={residence} initial={monthOf(figures.at)} />
    </>
  );
}

/** « Audience », a part of « Mes chiffres » (Figures.tsx). */
export function AudienceFigures({ me }: { me: Me }) {
  const headingId = useId();
  const pickerId = useId();
  const residences = useResidencesQuery(undefined).data ?? [];
  const names = new Map(residences.map((residence) => [residence.id, `${residence.artist} · ${residence.show}`]));
  // '' is the whole radio, for an admin.
  const [chosen, setChosen] = useState('');
  const admin = me.role === 'admin';
  const residence = admin ? (chosen === '' ? null : chosen) : me.residence;
  if (!admin && residence === null) return null;
  return (
    <section className="admin-figures-part" aria-labelledby={headingId}>
      <h3 id={headingId}>Audience</h3>
      <p className="admin-field__hint">
        Comptée sans cookie ni adresse conservée ; un chiffre inférieur à 5 s’affiche « moins de 5 ».
      </p>
      {admin ? (
        <div className="admin-field">
          <label htmlFor={pickerId}>Audience de</label>
          <select
            id={pickerId}
            value={chosen}
            onChange={(event) => {
              setChosen(event.target.value);
            }}
          >
            <option value="">Toute la radio</option>
            {residences.map((each) => (
              <option key={each.id} value={each.id}>
                {each.artist} · {each.show}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {/* One report per residence: another one starts afresh. */}
      <Report key={residence ?? ''} residence={residence} names={names} />
      {admin ? <ListenersSetting /> : null}
    </section>
  );
}
