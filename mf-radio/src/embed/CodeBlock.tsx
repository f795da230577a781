import { useId, useRef, useState } from 'react';

/** What the live region says after « Copier ». */
export const COPIED = 'Copié';
export const COPY_REFUSED =
  'Le navigateur a refusé la copie : le code est sélectionné, copiez-le avec Ctrl+C (⌘+C sur Mac).';

/**
 * Code to paste on the partner's site: read-only, selected whole when focused, with « Copier »
 * (the clipboard, or the code selected and a French word on how to copy it when the browser refuses).
 */
export function CodeBlock({ label, code, hint }: { label: string; code: string; hint?: string }) {
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [message, setMessage] = useState<{ text: string; code: string } | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setMessage({ text: COPIED, code });
    } catch {
      field.current?.focus();
      field.current?.select();
      setMessage({ text: COPY_REFUSED, code });
    }
  };
  return (
    <div className="code-block">
      <div className="code-block__head">
        <label className="code-block__label" htmlFor={id}>
          {label}
        </label>
        <button type="button" className="button button--ghost code-block__copy" onClick={() => void copy()}>
          Copier<span className="visually-hidden"> : {label}</span>
        </button>
      </div>
      {hint === undefined ? null : <p className="code-block__hint">{hint}</p>}
      <textarea
        ref={field}
        id={id}
        className="code-block__code"
        readOnly
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        rows={code.split('\n').length}
        value={code}
        onFocus={(event) => {
          const code = event.target;
          code.select();
          // Selecting scrolls to the code's end; the visitor sees its start, and the whole field
          // clear of the player's pill (the page's scroll padding).
          code.scrollTop = 0;
          // (jsdom, where the component tests run, lays nothing out and has no scrollIntoView.)
          if ('scrollIntoView' in code) code.scrollIntoView({ block: 'nearest' });
        }}
      />
      {/* The message is for the code it was given: another choice changes the code and clears it. */}
      <p className="code-block__message" role="status">
        {message !== null && message.code === code ? message.text : null}
      </p>
    </div>
  );
}
