import { useRef, useState } from 'react';
import { messageOf, uploadPicture, type PicturePurpose } from './call';

/*
 * « Envoyer une image » beside a picture's field (docs/content.md, « Pictures »): the file goes to
 * the site as it is, the site answers the address of the picture it made, and the field takes it.
 * The change is published with the form, like any other field.
 */

const ACCEPTED = 'image/jpeg,image/png,image/webp,image/avif';

export function PictureUpload({
  purpose,
  label,
  onUploaded,
}: {
  purpose: PicturePurpose;
  /** What the picture is, for the button's name (« Envoyer une image : Portrait »). */
  label: string;
  onUploaded: (src: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  return (
    <div className="admin-upload">
      <button
        type="button"
        className="button"
        disabled={state.busy}
        aria-label={`Envoyer une image : ${label}`}
        onClick={() => {
          input.current?.click();
        }}
      >
        {state.busy ? 'Envoi ...' : 'Envoyer une image'}
      </button>
      {/* The browser's file picker, opened by the button (no control of its own to reach). */}
      <input
        ref={input}
        type="file"
        accept={ACCEPTED}
        hidden
        data-purpose={purpose}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file === undefined) return;
          setState({ busy: true, error: null });
          uploadPicture(purpose, file)
            .then((src) => {
              setState({ busy: false, error: null });
              onUploaded(src);
            })
            .catch((error: unknown) => {
              setState({ busy: false, error: messageOf(error) });
            });
        }}
      />
      {state.error === null ? null : (
        <p className="admin-field__error" role="alert">
          {state.error}
        </p>
      )}
    </div>
  );
}
