import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { installLayoutObservers, removeLayoutObservers, setReducedMotion } from '../testing/browserApis';
import { AUTOPLAY_DELAY_MS, Carousel, slidesPerStep } from './Carousel';
import type { Slide } from './slides';

// Slides of the tests' own: the shipped ones are the volunteers' to change (their schema is checked
// with the content). A release with a link, a season start without one.
const slides: readonly Slide[] = [
  {
    imagePath: '/assets/images/slides/essai-sortie.webp',
    titre: 'Nouvelle sortie : Essai EP',
    description: 'Quatre titres.',
    link: 'https://label.example.org/album/essai',
  },
  {
    imagePath: '/assets/images/slides/essai-rentree.webp',
    titre: 'La rentrée',
    description: 'Les émissions reprennent.',
  },
];

beforeEach(() => {
  installLayoutObservers();
  setReducedMotion(false);
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
  removeLayoutObservers();
});

/** Rendered, then the visitor's pointer comes over it: Embla starts (Carousel.tsx). */
function started(element: React.ReactElement): void {
  render(element);
  fireEvent.pointerOver(screen.getByRole('region', { name: 'À la une' }));
}

function page(): string {
  return screen.getByText(/^Page \d+ sur \d+$/).textContent;
}

describe('Carousel', () => {
  it('shows the two slides, starts on page 1 and autoplays every 5 s, circularly', () => {
    started(<Carousel slides={slides} />);
    expect(screen.getAllByRole('group', { name: /sur 2/ })).toHaveLength(2);
    expect(page()).toBe('Page 1 sur 2');
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS - 10);
    });
    expect(page()).toBe('Page 1 sur 2');
    act(() => {
      jest.advanceTimersByTime(20);
    });
    expect(page()).toBe('Page 2 sur 2');
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS);
    });
    expect(page()).toBe('Page 1 sur 2');
  });
});

describe('Carousel navigation', () => {
  it('moves with next, previous (wrapping around) and the indicators, which show the current page', () => {
    started(<Carousel slides={slides} />);
    const indicators = within(screen.getByRole('group', { name: 'Choisir une page' })).getAllByRole('button');
    expect(indicators.map((b) => b.getAttribute('aria-label'))).toEqual(['Page 1', 'Page 2']);
    expect(indicators[0]).toHaveAttribute('aria-current', 'true');

    fireEvent.click(screen.getByRole('button', { name: 'Diapositive suivante' }));
    expect(page()).toBe('Page 2 sur 2');
    expect(indicators[1]).toHaveAttribute('aria-current', 'true');
    expect(indicators[0]).not.toHaveAttribute('aria-current');

    fireEvent.click(screen.getByRole('button', { name: 'Diapositive suivante' }));
    expect(page()).toBe('Page 1 sur 2');
    fireEvent.click(screen.getByRole('button', { name: 'Diapositive précédente' }));
    expect(page()).toBe('Page 2 sur 2');
    fireEvent.click(screen.getByRole('button', { name: 'Page 1' }));
    expect(page()).toBe('Page 1 sur 2');
  });

  it('stops autoplay on manual navigation, and the control resumes it', () => {
    started(<Carousel slides={slides} />);
    expect(screen.getByRole('button', { name: 'Pause du défilement' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Diapositive suivante' }));
    expect(screen.getByRole('button', { name: 'Lecture du défilement' })).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3);
    });
    expect(page()).toBe('Page 2 sur 2');

    fireEvent.click(screen.getByRole('button', { name: 'Lecture du défilement' }));
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS);
    });
    expect(page()).toBe('Page 1 sur 2');
    fireEvent.click(screen.getByRole('button', { name: 'Pause du défilement' }));
    expect(screen.getByRole('button', { name: 'Lecture du défilement' })).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 2);
    });
    expect(page()).toBe('Page 1 sur 2');
  });

  it('pauses and resumes from the control alone, which always says what a press will do', () => {
    started(<Carousel slides={slides} />);
    fireEvent.click(screen.getByRole('button', { name: 'Pause du défilement' }));
    expect(screen.getByRole('button', { name: 'Lecture du défilement' })).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 2);
    });
    expect(page()).toBe('Page 1 sur 2');
    fireEvent.click(screen.getByRole('button', { name: 'Lecture du défilement' }));
    expect(screen.getByRole('button', { name: 'Pause du défilement' })).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS);
    });
    expect(page()).toBe('Page 2 sur 2');
  });

  it('advances when the slide itself is clicked, and stops autoplay', () => {
    started(<Carousel slides={slides} />);
    fireEvent.click(screen.getByRole('heading', { name: slides[0]!.titre }));
    expect(page()).toBe('Page 2 sur 2');
    expect(screen.getByRole('button', { name: 'Lecture du défilement' })).toBeInTheDocument();
  });

  it('does not autoplay when the visitor prefers reduced motion', () => {
    setReducedMotion(true);
    started(<Carousel slides={slides} />);
    expect(screen.getByRole('button', { name: 'Lecture du défilement' })).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 2);
    });
    expect(page()).toBe('Page 1 sur 2');
  });
});

describe('Carousel start', () => {
  it('measures nothing until the visitor comes to it: a pointer over it', () => {
    const measured = jest.spyOn(HTMLElement.prototype, 'offsetWidth', 'get');
    render(<Carousel slides={slides} />);
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS - 10);
    });
    expect(page()).toBe('Page 1 sur 2');
    expect(measured).not.toHaveBeenCalled();
    fireEvent.pointerOver(screen.getByRole('region', { name: 'À la une' }));
    expect(measured).toHaveBeenCalled();
    expect(page()).toBe('Page 1 sur 2');
    fireEvent.click(screen.getByRole('button', { name: 'Diapositive suivante' }));
    expect(page()).toBe('Page 2 sur 2');
    measured.mockRestore();
  });

  it('or the focus in it', () => {
    const measured = jest.spyOn(HTMLElement.prototype, 'offsetWidth', 'get');
    render(<Carousel slides={slides} />);
    act(() => {
      screen.getByRole('button', { name: 'Diapositive précédente' }).focus();
    });
    expect(measured).toHaveBeenCalled();
    measured.mockRestore();
  });

  it('stops the autoplay when the focus comes into a slide before it started, as once started; not on the controls', () => {
    render(<Carousel slides={slides} />);
    act(() => {
      screen.getByRole('link', { name: /^En savoir plus/ }).focus();
    });
    expect(screen.getByRole('button', { name: 'Lecture du défilement' })).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3);
    });
    expect(page()).toBe('Page 1 sur 2');
  });

  it('keeps the autoplay when the focus comes onto the controls before it started', () => {
    render(<Carousel slides={slides} />);
    act(() => {
      screen.getByRole('button', { name: 'Diapositive précédente' }).focus();
    });
    expect(screen.getByRole('button', { name: 'Pause du défilement' })).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS);
    });
    expect(page()).toBe('Page 2 sur 2');
  });

  it('starts for the autoplay’s first step, 5 s after it is on the page, and autoplays every 5 s from there', () => {
    const measured = jest.spyOn(HTMLElement.prototype, 'offsetWidth', 'get');
    render(<Carousel slides={slides} />);
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS);
    });
    expect(measured).toHaveBeenCalled();
    expect(page()).toBe('Page 2 sur 2');
    expect(screen.getByRole('button', { name: 'Pause du défilement' })).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS);
    });
    expect(page()).toBe('Page 1 sur 2');
    measured.mockRestore();
  });

  it('makes a move pressed before it started, which stops the autoplay', () => {
    render(<Carousel slides={slides} />);
    fireEvent.click(screen.getByRole('button', { name: 'Diapositive suivante' }));
    expect(page()).toBe('Page 2 sur 2');
    expect(screen.getByRole('button', { name: 'Lecture du défilement' })).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3);
    });
    expect(page()).toBe('Page 2 sur 2');
  });

  it('keeps « Pause » pressed before it started: no step', () => {
    render(<Carousel slides={slides} />);
    fireEvent.click(screen.getByRole('button', { name: 'Pause du défilement' }));
    expect(screen.getByRole('button', { name: 'Lecture du défilement' })).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3);
    });
    expect(page()).toBe('Page 1 sur 2');
    fireEvent.click(screen.getByRole('button', { name: 'Lecture du défilement' }));
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS);
    });
    expect(page()).toBe('Page 2 sur 2');
  });

  it('with reduced motion, starts only when the visitor comes to it', () => {
    setReducedMotion(true);
    const measured = jest.spyOn(HTMLElement.prototype, 'offsetWidth', 'get');
    render(<Carousel slides={slides} />);
    act(() => {
      jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3);
    });
    expect(measured).not.toHaveBeenCalled();
    expect(page()).toBe('Page 1 sur 2');
    measured.mockRestore();
  });
});

describe('Carousel slides', () => {
  it('shows a "+" link opening the release page in a new tab, only on the slide that has a link', () => {
    started(<Carousel slides={slides} />);
    const [release, season] = screen.getAllByRole('group', { name: /sur 2/ });
    const more = within(release!).getByRole('link', { name: `En savoir plus : ${slides[0]!.titre} (nouvel onglet)` });
    expect(more).toHaveAttribute('href', slides[0]!.link);
    expect(more).toHaveAttribute('target', '_blank');
    expect(more).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(season!).queryByRole('link')).not.toBeInTheDocument();

    // Following the link does not move the carousel.
    fireEvent.click(more);
    expect(page()).toBe('Page 1 sur 2');
  });

  it('loads the first image at once with high priority (the largest paint) and the other lazily', () => {
    started(<Carousel slides={slides} />);
    const [first, second] = screen
      .getAllByRole('group', { name: /sur 2/ })
      .map((g) => within(g).getByRole('presentation'));
    expect(first).toHaveAttribute('src', slides[0]!.imagePath);
    expect(first).toHaveAttribute('loading', 'eager');
    expect(first).toHaveAttribute('fetchpriority', 'high');
    expect(first).toHaveAttribute('width', '1600');
    expect(first).toHaveAttribute('height', '900');
    expect(second).toHaveAttribute('loading', 'lazy');
    expect(second).toHaveAttribute('fetchpriority', 'low');
  });

  it('steps 2 slides at a time when there are enough to keep at least two pages', () => {
    expect(slidesPerStep(1)).toBe(1);
    expect(slidesPerStep(2)).toBe(1);
    expect(slidesPerStep(3)).toBe(2);
    expect(slidesPerStep(6)).toBe(2);
  });

  it('with 5 slides, pages by 2: three pages', () => {
    const five = [0, 1, 2, 3, 4].map((n) => ({
      imagePath: `/assets/images/slides/s${String(n)}.webp`,
      titre: `Titre ${String(n)}`,
      description: 'Texte',
    }));
    started(<Carousel slides={five} />);
    expect(page()).toBe('Page 1 sur 3');
    fireEvent.click(screen.getByRole('button', { name: 'Diapositive suivante' }));
    expect(page()).toBe('Page 2 sur 3');
  });

  it('shows a single slide without navigation', () => {
    started(<Carousel slides={slides.slice(0, 1)} />);
    expect(screen.getAllByRole('group', { name: /sur 1/ })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Diapositive suivante' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /du défilement/ })).not.toBeInTheDocument();
  });
});
