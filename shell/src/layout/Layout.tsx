import { Outlet } from '@collectif/shared';
import { AREA_ATTRIBUTE, SHELL_AREA } from '@collectif/shared/boot';
import { useEffect, useState } from 'react';
import { announceInteractive } from '../boot/interactive';
import { RemoteArea } from '../federation/RemoteArea';
import { Footer } from './Footer';
import { Navbar } from './Navbar';
import { PreviewBridge } from './PreviewBridge';

/** The areas the shell hydrates on their own, as the page's loader names them (`data-zone`). */
export const PAGE_ZONE = 'page';
const PLAYER_ZONE = 'player';

/** Navbar, routed page area and footer; the player sits outside the page area and is never re-mounted. */
export function Layout() {
  const [menuOpen, setMenuOpen] = useState(false);
  // The shell's own controls (the menu, the back button) have their handlers once this has run.
  useEffect(() => {
    announceInteractive(SHELL_AREA);
  }, []);
  return (
    <>
      <a className="skip-link" href="#contenu">
        Aller au contenu
      </a>
      <Navbar menuOpen={menuOpen} onMenuChange={setMenuOpen} />
      <div className={`page-area${menuOpen ? ' page-area--menu-open' : ''}`} inert={menuOpen || undefined}>
        <PreviewBridge zone={PAGE_ZONE} />
        <main id="contenu" tabIndex={-1} {...{ [AREA_ATTRIBUTE]: PAGE_ZONE }}>
          <Outlet />
        </main>
        <Footer />
      </div>
      <div className="player-slot" {...{ [AREA_ATTRIBUTE]: PLAYER_ZONE }}>
        <RemoteArea remote="player" module="Player" label="Le lecteur" loading={null} zone={PLAYER_ZONE} />
      </div>
    </>
  );
}
