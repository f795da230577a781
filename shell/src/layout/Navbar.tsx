import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, NavLink, useLocation, useNavigate, siteConfig, usePages, type MenuLink } from '@collectif/shared';
import { prefetchRemote } from '../federation/RemoteArea';
import { BackIcon, Logo, MenuIcon } from './icons';
import { backTarget, externalLinks, internalLinks } from './navigation';
import { useHideOnScroll } from './useHideOnScroll';
import { useMediaQuery } from './useMediaQuery';
import { SupportLink } from '@collectif/shared/addresses';
import { ExternalLink, scrollToTop } from '@collectif/shared/ui';

export const DESKTOP_QUERY = '(min-width: 1200px)';
const PILL_DELAY_MS = 100;

interface NavbarProps {
  menuOpen: boolean;
  onMenuChange: (open: boolean) => void;
}

interface PillBox {
  left: number;
  width: number;
}

function usePill(pathname: string, enabled: boolean) {
  const listRef = useRef<HTMLUListElement>(null);
  const [pill, setPill] = useState<PillBox | null>(null);
  const place = useCallback(() => {
    const active = listRef.current?.querySelector<HTMLElement>('a[aria-current="page"]');
    setPill(active ? { left: active.offsetLeft, width: active.offsetWidth } : null);
  }, []);
  useLayoutEffect(() => {
    if (!enabled) return undefined;
    // The first placement waits for fonts and layout to settle (100 ms; docs/site.md, « Navigation bar »).
    const timer = setTimeout(place, PILL_DELAY_MS);
    window.addEventListener('resize', place);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', place);
    };
  }, [enabled, place]);
  useLayoutEffect(() => {
    if (enabled) place();
  }, [pathname, enabled, place]);
  return { listRef, pill };
}

export function Navbar({ menuOpen, onMenuChange }: NavbarProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const pages = usePages();
  const links = internalLinks(pages);
  const hidden = useHideOnScroll(menuOpen);
  const isHome = pathname === '/';
  const { listRef, pill } = usePill(pathname, desktop);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  const close = useCallback(() => {
    onMenuChange(false);
  }, [onMenuChange]);

  const followLink = () => {
    close();
    scrollToTop();
  };

  const goBack = () => {
    close();
    void navigate(backTarget(pathname, pages));
    scrollToTop();
  };

  // Desktop has no full-screen menu: leaving mobile layout closes it.
  useEffect(() => {
    if (desktop) close();
  }, [desktop, close]);

  // Focus moves into the open menu and back to the toggle when it closes.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (menuOpen) menuRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    else if (wasOpen.current) toggleRef.current?.focus();
    wasOpen.current = menuOpen;
  }, [menuOpen]);

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'Tab' || menuRef.current === null) return;
    // Focus stays inside the menu and its toggle while the menu is open.
    const focusables = [toggleRef.current, ...menuRef.current.querySelectorAll<HTMLElement>('a, button')].filter(
      (el): el is HTMLElement => el !== null,
    );
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    if (first === undefined || last === undefined) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const prefetch = (link: MenuLink) => () => {
    void prefetchRemote(link.page);
  };

  // The full-screen menu is the header's sibling, not its child: the header's backdrop filter and
  // its hide-on-scroll transform would make it the containing block of the fixed menu, clipping the
  // menu to the header's 80 px (docs/interface.md, "Navigation").
  return (
    <>
      <header
        className={`navbar${hidden ? ' navbar--hidden' : ''}${menuOpen ? ' navbar--open' : ''}`}
        data-layout={desktop ? 'desktop' : 'mobile'}
        onKeyDown={menuOpen ? onMenuKeyDown : undefined}
      >
        <div className="navbar__bar">
          <div className="navbar__start">
            {isHome ? (
              <Link to="/" className="navbar__logo" onClick={followLink}>
                <Logo title={`${siteConfig.name}, accueil`} />
              </Link>
            ) : (
              <button
                type="button"
                className="navbar__back"
                onClick={goBack}
                aria-label={backTarget(pathname, pages) === '/' ? "Retour à l'accueil" : 'Retour aux résidences'}
              >
                <BackIcon />
              </button>
            )}
          </div>

          {/* Both layouts are in the markup and CSS shows the one that fits the screen (layout.css):
              the server cannot know the width, and the first render in the browser must match its
              HTML. Only behaviour (the pill, the menu) follows the media query. */}
          <nav className="navbar__desktop" aria-label="Navigation principale">
            <ul className="pill-menu" ref={listRef}>
              {desktop && !isHome && pill !== null ? (
                <li
                  className="pill-menu__highlighter"
                  aria-hidden="true"
                  style={{ transform: `translateX(${String(pill.left)}px)`, width: pill.width }}
                />
              ) : null}
              {links.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} onClick={followLink} onMouseEnter={prefetch(link)} onFocus={prefetch(link)}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
            <ul className="navbar__external">
              {externalLinks.map((link) => (
                <li key={link.href}>
                  <ExternalLink href={link.href}>{link.label}</ExternalLink>
                </li>
              ))}
            </ul>
          </nav>
          <button
            ref={toggleRef}
            type="button"
            className="navbar__toggle"
            aria-expanded={menuOpen}
            aria-controls="menu-mobile"
            aria-label={menuOpen ? 'Fermer le menu' : 'Ouvrir le menu'}
            onClick={() => {
              onMenuChange(!menuOpen);
            }}
          >
            <MenuIcon open={menuOpen} />
          </button>
        </div>
      </header>

      {!desktop && menuOpen ? (
        <div
          className="mobile-menu"
          id="menu-mobile"
          ref={menuRef}
          role="dialog"
          aria-modal="true"
          aria-label="Menu"
          onKeyDown={onMenuKeyDown}
        >
          <nav aria-label="Navigation principale">
            <ul className="mobile-menu__internal">
              {links.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} onClick={followLink} onFocus={prefetch(link)}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
            <ul className="mobile-menu__external">
              {externalLinks.map((link) => (
                <li key={link.href}>
                  <ExternalLink href={link.href} onClick={close}>
                    {link.label}
                  </ExternalLink>
                </li>
              ))}
            </ul>
          </nav>
          {/* The site's page while HelloAsso takes payments on it, else the external one (docs/support.md). */}
          <SupportLink className="button mobile-menu__support" onClick={close}>
            Nous soutenir
          </SupportLink>
        </div>
      ) : null}
    </>
  );
}
