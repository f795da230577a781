import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { call, messageOf } from './call';
import { currentVersion, OutcomeMessage, outcomeOf, problemsOf, type Outcome, type Version } from './outcome';
import { StatusMessage } from '@collectif/shared/ui';

/*
 * What every form of the editor does the same way (docs/content.md, « The editor »): it opens on the
 * kind's current version as saved, publishes on the version it was opened from, says the outcome
 * (saved, refused beside the fields, changed meanwhile by someone else, refused otherwise), and on a
 * conflict takes the other version or publishes the volunteer's on it.
 */

/** A save's answer (PUT /api/content/…). */
interface Saved {
  version: { id: string; savedAt: string };
}

export interface VersionForm<T> {
  /** The form's content and the version it is based on; null while it loads. */
  loaded: { basedOn: string; value: T } | null;
  /** Why it could not open (the site's words). */
  failure: string | null;
  outcome: Outcome;
  /** What a refused save said of each field, by its JSON pointer (`problemsOf`). */
  problems: ReadonlyMap<string, string>;
  setOutcome: (outcome: Outcome) => void;
  busy: boolean;
  /** Changes the content, from the state as it is then (an upload answers after other edits). */
  edit: (change: (value: T) => T) => void;
  /** Publishes the content on `basedOn`. */
  publish: (basedOn: string) => void;
  /** Takes another version into the form (« Reprendre la version actuelle », a restore). */
  take: (version: Version) => void;
}

export function useVersionForm<T>({
  kind,
  read,
  send,
  onPublished,
}: {
  kind: string;
  /** The form's content from a version, or a French sentence saying why there is none. */
  read: (version: Version) => T | { missing: string };
  /** The save of the content on a version (its own route: a residence, or the whole kind). */
  send: (value: T, basedOn: string) => Promise<Saved>;
  onPublished?: (() => void) | undefined;
}): VersionForm<T> {
  const [loaded, setLoaded] = useState<{ basedOn: string; value: T } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  // The form's callbacks of its last render, used once a request answers.
  const latest = useRef({ read, send, onPublished });
  useEffect(() => {
    latest.current = { read, send, onPublished };
  });

  // One kind (and entry) per mounting: the page keys each form by what it edits.
  useEffect(() => {
    const ended = new AbortController();
    currentVersion(kind)
      .then((version) => {
        if (ended.signal.aborted) return;
        const value = latest.current.read(version);
        if (isMissing(value)) setFailure(value.missing);
        else setLoaded({ basedOn: version.id, value });
      })
      .catch((error: unknown) => {
        if (!ended.signal.aborted) setFailure(messageOf(error));
      });
    return () => {
      ended.abort();
    };
  }, [kind]);

  return {
    loaded,
    failure,
    outcome,
    problems: problemsOf(outcome),
    setOutcome,
    busy,
    edit: (change) => {
      setLoaded((now) => (now === null ? now : { ...now, value: change(now.value) }));
    },
    publish: (basedOn) => {
      if (loaded === null) return;
      const { value } = loaded;
      setBusy(true);
      latest.current
        .send(value, basedOn)
        .then(({ version }) => {
          setLoaded({ basedOn: version.id, value });
          setOutcome({ kind: 'saved', at: version.savedAt });
          latest.current.onPublished?.();
        })
        .catch((error: unknown) => {
          setOutcome(outcomeOf(error));
        })
        .finally(() => {
          setBusy(false);
        });
    },
    take: (version) => {
      const value = latest.current.read(version);
      if (!isMissing(value)) setLoaded({ basedOn: version.id, value });
      setOutcome({ kind: 'none' });
    },
  };
}

/**
 * A form while it opens: why it cannot (the site's words), or its loading line; null once it is open,
 * for the form to show itself.
 */
export function FormOpening<T>({ form, loading = 'Chargement ...' }: { form: VersionForm<T>; loading?: string }) {
  if (form.failure !== null) return <StatusMessage kind="error">{form.failure}</StatusMessage>;
  if (form.loaded === null) return <StatusMessage kind="loading">{loading}</StatusMessage>;
  return null;
}

function isMissing(value: unknown): value is { missing: string } {
  return typeof value === 'object' && value !== null && 'missing' in value && Object.keys(value).length === 1;
}

/** The whole kind saved on a version (`PUT /api/content/:kind`). */
export const saveKind = (kind: string) => (data: unknown, basedOn: string) =>
  call<Saved>('PUT', `/content/${kind}`, { data, basedOn });

/** The outcome said, and « Publier », at the end of every form. */
export function PublishFooter<T>({
  form,
  saved,
  theirs,
  id,
}: {
  form: VersionForm<T>;
  /** What « Publié » says is now shown, and where. */
  saved: string;
  /** On a conflict, the other version's text, put beside the volunteer's. */
  theirs: (current: Version) => ReactNode;
  /** The live region's id, when the form names it as its description. */
  id?: string;
}) {
  const { outcome, busy } = form;
  return (
    <>
      <div id={id} aria-live="polite">
        <OutcomeMessage
          outcome={outcome}
          saved={saved}
          theirs={outcome.kind === 'conflict' ? theirs(outcome.current) : null}
          onTakeTheirs={form.take}
          onKeepMine={(current) => {
            form.publish(current.id);
          }}
        />
      </div>
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Publication ...' : 'Publier'}
      </button>
    </>
  );
}

/**
 * One form of the editor, the pattern every whole-kind form follows (docs/content.md, « The
 * editor »): « Chargement » or the failure while it opens, then its title, what it says first, its
 * fields drawn from the content, and « Publier » with the outcome at the end; the form publishes on
 * the version it was opened from.
 */
export function VersionEditor<T>({
  form,
  title,
  intro,
  loading,
  saved,
  theirs,
  children,
}: {
  form: VersionForm<T>;
  title: string;
  /** What is said under the title, before the form. */
  intro?: ReactNode;
  loading?: string;
  /** What « Publié » says is now shown, and where. */
  saved: string;
  /** On a conflict, the other version's text, put beside the volunteer's. */
  theirs: (current: Version) => ReactNode;
  /** The form's fields from its content; `formId` names their ids apart. */
  children: (value: T, formId: string) => ReactNode;
}) {
  const formId = useId();
  const { loaded } = form;
  if (loaded === null || form.failure !== null) {
    return <FormOpening form={form} {...(loading === undefined ? {} : { loading })} />;
  }
  const { value, basedOn } = loaded;
  return (
    <section className="admin-editor" aria-labelledby={`${formId}-titre`}>
      <h2 id={`${formId}-titre`}>{title}</h2>
      {intro}
      <form
        className="admin-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          form.publish(basedOn);
        }}
      >
        {children(value, formId)}
        <PublishFooter form={form} saved={saved} theirs={theirs} />
      </form>
    </section>
  );
}
