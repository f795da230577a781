import type { ReactNode } from 'react';

/*
 * One field of the editor's forms (docs/content.md, « The editor »), the same everywhere: its label,
 * an input or a text area, the hint under it, and the site's refusal beside it, tied to the control
 * for screen readers (`aria-describedby`, `aria-invalid`).
 */

export function Field({
  id,
  label,
  value,
  onChange,
  hint,
  error,
  multiline = false,
  type = 'text',
  name,
  children,
}: {
  /** The control's id; the hint's and the error's are made from it. */
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string | undefined;
  /** The site's refusal of this field, in its words. */
  error?: string | undefined;
  /** A text area (a paragraph) rather than one line. */
  multiline?: boolean;
  type?: 'text' | 'url';
  name?: string;
  /** What goes under the control (« Envoyer une image »). */
  children?: ReactNode;
}) {
  const described = [hint === undefined ? null : `${id}-aide`, error === undefined ? null : `${id}-erreur`]
    .filter((item) => item !== null)
    .join(' ');
  const common = {
    id,
    name,
    value,
    'aria-invalid': error === undefined ? undefined : true,
    'aria-describedby': described === '' ? undefined : described,
  };
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea
          {...common}
          rows={Math.min(10, Math.max(3, Math.ceil(value.length / 60)))}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        />
      ) : (
        <input
          {...common}
          type={type}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        />
      )}
      {hint === undefined ? null : (
        <p className="admin-field__hint" id={`${id}-aide`}>
          {hint}
        </p>
      )}
      {children}
      {error === undefined ? null : (
        <p className="admin-field__error" id={`${id}-erreur`}>
          {error}
        </p>
      )}
    </div>
  );
}
