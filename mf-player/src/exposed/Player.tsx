import { useState } from 'react';
import type { RemoteContract } from '@collectif/shared';

function Player() {
  const [open, setOpen] = useState(false);
  return (
    <section aria-label="Lecteur radio">
      <button
        type="button"
        onClick={() => {
          setOpen(!open);
        }}
        aria-expanded={open}
      >
        Stream
      </button>
    </section>
  );
}

export default Player satisfies RemoteContract['player']['Player'];
