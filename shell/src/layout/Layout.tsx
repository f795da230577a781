import { Outlet } from '@collectif/shared';
import { useState } from 'react';
import { RemoteArea } from '../federation/RemoteArea';
import { Footer } from './Footer';
import { Navbar } from './Navbar';

/** Navbar, routed page area and footer; the player sits outside the page area and is never re-mounted. */
export function Layout() {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <>
      <a className="skip-link" href="#contenu">
        Aller au contenu
      </a>
      <Navbar menuOpen={menuOpen} onMenuChange={setMenuOpen} />
      <div className={`page-area${menuOpen ? ' page-area--menu-open' : ''}`} inert={menuOpen || undefined}>
        <main id="contenu" tabIndex={-1}>
          <Outlet />
        </main>
        <Footer />
      </div>
      <div className="player-slot">
        <RemoteArea remote="player" module="Player" label="Le lecteur" loading={null} />
      </div>
    </>
  );
}
