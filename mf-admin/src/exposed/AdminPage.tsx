import { useEffect, useId, useState, type ReactNode } from 'react';
import { useResidencesQuery, type PageRoute, type RemoteContract } from '@collectif/shared';
import { StatusMessage } from '@collectif/shared/ui';
import { call, messageOf, ROLE_NAMES, type Me } from '../editor/call';
import { signIn } from '../editor/passkeys';
import { AboutEditor } from '../editor/AboutEditor';
import { History } from '../editor/History';
import { LIST_KINDS, ListEditor } from '../editor/ListEditor';
import { MergeEditor } from '../editor/MergeEditor';
import { Figures, hasFigures } from '../editor/Figures';
import { ResidenceEditor } from '../editor/ResidenceEditor';
import { SupportEditor } from '../editor/SupportEditor';
import { PROPOSAL_KINDS, Proposals } from '../editor/Proposals';
import { LiveArchives } from '../editor/LiveArchives';
import { TracklistEditor } from '../editor/TracklistEditor';
import '../editor/admin.css';

/*
 * /admin, the volunteers' editor (docs/content.md, « The editor »): sign in with a passkey, then
 * edit what the account's role allows. The server checks every right on every write; this page only
 * offers what the account may do. Visitors never see it: not in the menu, not in the sitemap, noindex.
 */

function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <section className="admin-signin" aria-labelledby="admin-connexion">
      <h2 id="admin-connexion">Connexion</h2>
      <p>Votre téléphone, votre ordinateur ou votre clé de sécurité vous demande la clé créée à votre invitation.</p>
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          signIn()
            .then(onSignedIn)
            .catch((failure: unknown) => {
              setError(messageOf(failure));
            })
            .finally(() => {
              setBusy(false);
            });
        }}
      >
        {busy ? 'Connexion ...' : 'Se connecter avec une clé d’accès'}
      </button>
      {error === null ? null : (
        <p className="admin-outcome admin-outcome--error" role="alert">
          {error}
        </p>
      )}
      <p className="admin-field__hint">Pas encore de compte ? Demandez une invitation à l’équipe du collectif.</p>
    </section>
  );
}

/**
 * A residence chosen among the site's (the first one until another is), and what `children` makes
 * of it: an admin's residence form, or an admin's tracklists.
 */
function ResidenceChoice({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const pickerId = useId();
  const residences = useResidencesQuery(undefined).data ?? [];
  const [chosen, setChosen] = useState('');
  const id = chosen === '' ? (residences[0]?.id ?? '') : chosen;
  return (
    <>
      <div className="admin-field">
        <label htmlFor={pickerId}>{label}</label>
        <select
          id={pickerId}
          value={id}
          onChange={(event) => {
            setChosen(event.target.value);
          }}
        >
          {residences.map((residence) => (
            <option key={residence.id} value={residence.id}>
              {residence.artist} · {residence.show}
            </option>
          ))}
        </select>
      </div>
      {id === '' ? null : children(id)}
    </>
  );
}

/** An admin chooses the residence to edit; a resident has theirs. */
function ResidencePicker({ revision, onPublished }: { revision: number; onPublished: () => void }) {
  return (
    <ResidenceChoice label="Résidence à modifier">
      {(id) => <ResidenceEditor key={`${id}:${String(revision)}`} id={id} onPublished={onPublished} />}
    </ResidenceChoice>
  );
}

/** An admin's tracklists: a residence chosen, then one of its episodes. */
function TracklistPicker({ revision }: { revision: number }) {
  return (
    <ResidenceChoice label="Résidence">
      {(id) => <TracklistEditor key={`${id}:${String(revision)}`} residence={id} />}
    </ResidenceChoice>
  );
}

type Kind = 'residences' | 'tracklists' | 'releases' | 'team' | 'about' | 'slides' | 'support' | 'artistMerges';
const KIND_NAMES: Record<Kind, string> = {
  residences: 'Résidences',
  tracklists: 'Listes de titres des émissions',
  releases: LIST_KINDS.releases.title,
  team: LIST_KINDS.team.title,
  about: 'Textes de la page À propos',
  slides: LIST_KINDS.slides.title,
  artistMerges: 'Fusions d’artistes',
  support: 'Nous soutenir (HelloAsso, objectif d’adhérents)',
};
/** What each team saves whole (docs/content.md, « Who may edit what »); a resident, their residence. */
const KINDS_OF: Record<Exclude<Me['role'], 'residence'>, readonly Kind[]> = {
  // The programmation team edits no content: its proposals alone (docs/proposals.md).
  programmation: [],
  admin: ['residences', 'tracklists', 'releases', 'team', 'about', 'slides', 'support', 'artistMerges'],
  label: ['releases'],
  about: ['team', 'about', 'slides'],
};

/** The forms a team's account opens, one kind at a time, with its history. */
function TeamEditor({ kinds }: { kinds: readonly Kind[] }) {
  const chooserId = useId();
  const [kind, setKind] = useState<Kind>(kinds[0] ?? 'releases');
  // A restore puts another version online: the form opens it.
  const [revision, setRevision] = useState(0);
  // Each save published by the form: the history beside it reads the versions again.
  const [published, setPublished] = useState(0);
  const onPublished = () => {
    setPublished((count) => count + 1);
  };
  return (
    <>
      {kinds.length < 2 ? null : (
        <div className="admin-field">
          <label htmlFor={chooserId}>Contenu à modifier</label>
          <select
            id={chooserId}
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as Kind);
            }}
          >
            {kinds.map((each) => (
              <option key={each} value={each}>
                {KIND_NAMES[each]}
              </option>
            ))}
          </select>
        </div>
      )}
      {kind === 'residences' ? (
        <ResidencePicker revision={revision} onPublished={onPublished} />
      ) : kind === 'tracklists' ? (
        <TracklistPicker revision={revision} />
      ) : kind === 'about' ? (
        <AboutEditor key={`about:${String(revision)}`} onPublished={onPublished} />
      ) : kind === 'artistMerges' ? (
        <MergeEditor key={`artistMerges:${String(revision)}`} onPublished={onPublished} />
      ) : kind === 'support' ? (
        <SupportEditor key={`support:${String(revision)}`} onPublished={onPublished} />
      ) : (
        <ListEditor key={`${kind}:${String(revision)}`} list={LIST_KINDS[kind]} onPublished={onPublished} />
      )}
      <History
        key={kind}
        kind={kind}
        title={KIND_NAMES[kind]}
        published={published}
        onRestored={() => {
          setRevision((count) => count + 1);
        }}
      />
    </>
  );
}

/**
 * A resident's residence, with its history: the versions that changed it (the site gives no other,
 * and names no other editor), each one restorable for this residence alone.
 */
function ResidentEditor({ id }: { id: string }) {
  const [revision, setRevision] = useState(0);
  const [published, setPublished] = useState(0);
  return (
    <>
      <ResidenceEditor
        key={String(revision)}
        id={id}
        onPublished={() => {
          setPublished((count) => count + 1);
        }}
      />
      <History
        kind="residences"
        title="votre résidence"
        published={published}
        restorePath={`/content/residences/${encodeURIComponent(id)}/restore`}
        onRestored={() => {
          setRevision((count) => count + 1);
        }}
      />
      <TracklistEditor residence={id} />
    </>
  );
}

function Signed({ me, onSignedOut }: { me: Me; onSignedOut: () => void }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <div className="admin-account">
        <p>
          Connecté·e : <strong>{me.name}</strong> ({ROLE_NAMES[me.role]}
          {me.residence === null ? '' : ` « ${me.residence} »`})
        </p>
        <button
          type="button"
          className="button"
          onClick={() => {
            call('POST', '/editor/signout', {})
              .then(onSignedOut)
              .catch((failure: unknown) => {
                setError(messageOf(failure));
              });
          }}
        >
          Se déconnecter
        </button>
        {error === null ? null : (
          <p className="admin-outcome admin-outcome--error" role="alert">
            {error}
          </p>
        )}
      </div>
      {hasFigures(me) ? <Figures me={me} /> : null}
      {PROPOSAL_KINDS[me.role] === undefined ? null : <Proposals role={me.role} />}
      {me.role === 'admin' || me.role === 'residence' ? <LiveArchives /> : null}
      {me.role === 'residence' ? (
        me.residence === null ? null : (
          <ResidentEditor id={me.residence} />
        )
      ) : KINDS_OF[me.role].length === 0 ? null : (
        <TeamEditor kinds={KINDS_OF[me.role]} />
      )}
    </>
  );
}

function AdminPage() {
  // undefined: not known yet; null: signed out.
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    call<Me | null>('GET', '/editor/me')
      .then(setMe)
      .catch((failure: unknown) => {
        setError(messageOf(failure));
      });
  }, []);
  let body;
  if (error !== null) body = <StatusMessage kind="error">{error}</StatusMessage>;
  else if (me === undefined) body = <StatusMessage kind="loading">Chargement de votre espace ...</StatusMessage>;
  else if (me === null) body = <SignIn onSignedIn={setMe} />;
  else
    body = (
      <Signed
        me={me}
        onSignedOut={() => {
          setMe(null);
        }}
      />
    );
  return (
    <div className="page admin-page">
      <h1>Espace des bénévoles</h1>
      {/* Rendered by the server, whoever comes: the page's first text is there at once. */}
      <p className="admin-intro">
        Les bénévoles du collectif modifient ici le contenu du site : chaque résident·e sa résidence, l’équipe du label
        ses sorties, l’équipe « À propos » ses textes, son équipe et la une de l’accueil. Ce qui est publié est en ligne
        tout de suite, et chaque version reste dans l’historique. On se connecte avec une clé d’accès : rien à retenir,
        aucun mot de passe.
      </p>
      {body}
    </div>
  );
}

export default AdminPage satisfies RemoteContract['admin']['AdminPage'];

/** Its address and names (docs/parts.md, « Pages »): not in the menu, never indexed. */
export const route: PageRoute = {
  path: 'admin',
  title: 'Espace des bénévoles',
  description: 'Les bénévoles du collectif modifient ici les contenus du site.',
  area: 'L’espace des bénévoles',
  noindex: true,
};
