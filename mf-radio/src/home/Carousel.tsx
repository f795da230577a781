import { useCallback, useEffect, useRef, useState, type FocusEvent } from 'react';
import useEmblaCarousel from 'embla-carousel-react';
import Autoplay from 'embla-carousel-autoplay';
import type { EmblaCarouselType } from 'embla-carousel';
import { SLIDE_SIZES, slideSrcSet, type Slide } from './slides';
import { prefersReducedMotion, useReducedMotion } from '@collectif/shared/ui';

/** docs/site.md, « Home »: autoplay every 5 s, 1 visible, 2 per step, 20 px swipe threshold, 500 ms transition. */
export const AUTOPLAY_DELAY_MS = 5000;
export const SLIDES_PER_STEP = 2;
export const SWIPE_THRESHOLD_PX = 20;
/**
 * Embla's `duration` is a speed factor of its physics, not milliseconds. Measured in Chromium
 * (mf-radio/scripts/measure-carousel.mjs), 21 covers 99 % of a step in about 500 ms at any width.
 */
export const EMBLA_DURATION = 21;

/**
 * The carousel pages like the original one: one slide visible and up to 2 per step, but Embla groups
 * slides by the step size, so with 2 slides a step of 2 would leave a single page and nothing to
 * scroll. The step is therefore capped so that there are always at least 2 pages.
 */
export function slidesPerStep(slideCount: number): number {
  return Math.max(1, Math.min(SLIDES_PER_STEP, slideCount - 1));
}

/** `jump` moves without the sliding animation (for visitors who prefer reduced motion). */
type Move = (api: EmblaCarouselType, jump: boolean) => void;

const next: Move = (api, jump) => {
  // Circular even when Embla cannot loop (too few slides to fill both sides of the view).
  if (api.canScrollNext()) api.scrollNext(jump);
  else api.scrollTo(0, jump);
};

const previous: Move = (api, jump) => {
  if (api.canScrollPrev()) api.scrollPrev(jump);
  else api.scrollTo(api.scrollSnapList().length - 1, jump);
};

function SlideView({ slide, index, count }: { slide: Slide; index: number; count: number }) {
  const first = index === 0;
  return (
    <div
      className="carousel__slide"
      role="group"
      aria-roledescription="diapositive"
      aria-label={`${String(index + 1)} sur ${String(count)} : ${slide.titre}`}
    >
      <img
        className="carousel__image"
        src={slide.imagePath}
        srcSet={slideSrcSet(slide.imagePath)}
        alt=""
        width={1600}
        height={900}
        sizes={SLIDE_SIZES}
        // The first slide is the home page's largest paint; the others wait until needed, and then
        // come after it (Chromium would raise the next slide, beside it in the row, to a high
        // priority: docs/head.md, « The rest of the first screen after it »).
        loading={first ? 'eager' : 'lazy'}
        fetchPriority={first ? 'high' : 'low'}
        decoding={first ? 'sync' : 'async'}
        draggable={false}
      />
      <div className="carousel__caption">
        <h3 className="carousel__title">{slide.titre}</h3>
        <p className="carousel__description">{slide.description}</p>
      </div>
      {slide.link === undefined ? null : (
        <a
          className="carousel__more"
          href={slide.link}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`En savoir plus : ${slide.titre} (nouvel onglet)`}
          onClick={(event) => {
            // Following the link must not also advance the carousel.
            event.stopPropagation();
          }}
        >
          <span aria-hidden="true">+</span>
        </a>
      )}
    </div>
  );
}

/** Block 1 of the home page: the promotional carousel (docs/site.md, « Home »). */
export function Carousel({ slides }: { slides: readonly Slide[] }) {
  // The server renders as if motion were fine, and so does the first render here (hydration); the
  // visitor's preference applies right after.
  const reducedMotion = useReducedMotion();
  // Options and plugins are created once: useEmblaCarousel re-initialises whenever they change.
  const [options] = useState(() => ({
    loop: true,
    slidesToScroll: slidesPerStep(slides.length),
    dragThreshold: SWIPE_THRESHOLD_PX,
    duration: EMBLA_DURATION,
  }));
  const [plugins] = useState(() => [
    Autoplay({
      delay: AUTOPLAY_DELAY_MS,
      playOnInit: !prefersReducedMotion(),
      stopOnInteraction: true,
      stopOnFocusIn: true,
    }),
  ]);
  const [viewportRef, api] = useEmblaCarousel(options, plugins);
  // Embla starts (measuring every slide, its listeners, the autoplay's timer) only when it is needed:
  // when the visitor comes to the carousel (a pointer over it, a touch, the focus in it), or when the
  // autoplay's first step is due. Until then the first slide shows as the server drew it. Started
  // once the browser was idle, it was the home page's longest task after the paint on a phone
  // (docs/first-screen.md, « Work after the paint »). A move asked for before is made once it has
  // started.
  const [started, setStarted] = useState(false);
  const start = useCallback(() => {
    setStarted(true);
  }, []);
  /** The visitor's move asked for before Embla started; the autoplay's first step, due at its start. */
  const waiting = useRef<{ move: Move; byVisitor: boolean } | null>(null);
  /** The Pause/Lecture button's choice, made before Embla started. */
  const chosen = useRef<'playing' | 'stopped' | null>(null);
  const [selected, setSelected] = useState(0);
  const [pageCount, setPageCount] = useState(() => Math.ceil(slides.length / slidesPerStep(slides.length)));
  // The plugin does not autoplay a single page, nor when the visitor prefers reduced motion.
  // Until the plugin or the visitor says otherwise, it plays unless there is one page or the visitor
  // prefers reduced motion (the plugin does not autoplay then).
  const [choice, setChoice] = useState<'auto' | 'playing' | 'stopped'>('auto');
  const playing = choice === 'auto' ? !reducedMotion && slides.length > 1 : choice === 'playing';

  /**
   * The focus came in before Embla started: in a slide (its « + »), it stops the autoplay, as the
   * plugin does once started (`stopOnFocusIn`: the focus in a slide); on the controls, it does not.
   */
  const startOnFocus = useCallback(
    (event: FocusEvent<HTMLElement>) => {
      if (event.target instanceof Element && event.target.closest('.carousel__slide') !== null) {
        chosen.current = 'stopped';
        setChoice('stopped');
      }
      start();
    },
    [start],
  );

  // The autoplay's first step: Embla starts for it, the step made at once (the plugin's timer then
  // counts from there). Not in a hidden tab, where the plugin makes no step either.
  useEffect(() => {
    if (started || !playing) return undefined;
    const timer = setTimeout(() => {
      if (document.visibilityState !== 'hidden') waiting.current ??= { move: next, byVisitor: false };
      setStarted(true);
    }, AUTOPLAY_DELAY_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [started, playing]);

  useEffect(() => {
    if (api === undefined) return undefined;
    const sync = () => {
      setSelected(api.selectedScrollSnap());
      setPageCount(api.scrollSnapList().length);
    };
    // The plugin emits these before updating isPlaying(), so the event itself says which it is.
    const played = () => {
      setChoice('playing');
    };
    const stopped = () => {
      setChoice('stopped');
    };
    sync();
    api.on('select', sync).on('reInit', sync).on('autoplay:play', played).on('autoplay:stop', stopped);
    // What the visitor chose before Embla started; then the move asked for, if any.
    const { autoplay } = api.plugins();
    if (chosen.current === 'stopped') autoplay.stop();
    if (chosen.current === 'playing') autoplay.play();
    chosen.current = null;
    const first = waiting.current;
    waiting.current = null;
    if (first !== null) {
      if (first.byVisitor) autoplay.stop();
      first.move(api, prefersReducedMotion());
    }
    return () => {
      api.off('select', sync).off('reInit', sync).off('autoplay:play', played).off('autoplay:stop', stopped);
    };
  }, [api]);

  /** Any navigation by the visitor stops autoplay (docs/site.md, « Home »). */
  const navigate = useCallback(
    (move: Move) => {
      if (api === undefined) {
        waiting.current = { move, byVisitor: true };
        setChoice('stopped');
        start();
        return;
      }
      api.plugins().autoplay.stop();
      move(api, reducedMotion);
    },
    [api, reducedMotion, start],
  );

  const togglePlay = () => {
    if (api === undefined) {
      chosen.current = playing ? 'stopped' : 'playing';
      setChoice(chosen.current);
      start();
      return;
    }
    const { autoplay } = api.plugins();
    if (playing) autoplay.stop();
    else autoplay.play();
    // Said here too: the plugin emits nothing when it had nothing to do (one slide, hidden tab).
    setChoice(playing ? 'stopped' : 'playing');
  };

  return (
    <section
      className="home-block carousel"
      aria-roledescription="carrousel"
      aria-labelledby="a-la-une"
      onPointerOver={started ? undefined : start}
      onPointerDown={started ? undefined : start}
      onTouchStart={started ? undefined : start}
      onFocus={started ? undefined : startOnFocus}
    >
      <h2 id="a-la-une" className="visually-hidden">
        À la une
      </h2>
      <div
        className="carousel__viewport"
        ref={started ? viewportRef : undefined}
        onClick={() => {
          // A click advances. After a drag, Embla stops the click before it reaches here.
          navigate(next);
        }}
      >
        <div className="carousel__container" aria-live={playing ? 'off' : 'polite'}>
          {slides.map((slide, index) => (
            <SlideView key={slide.imagePath} slide={slide} index={index} count={slides.length} />
          ))}
        </div>
      </div>
      {/* A single slide needs no navigation (and the autoplay plugin does not run for it). */}
      {slides.length < 2 ? null : (
        <div className="carousel__controls">
          <button
            type="button"
            className="carousel__button"
            aria-label="Diapositive précédente"
            onClick={() => {
              navigate(previous);
            }}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <div className="carousel__indicators" role="group" aria-label="Choisir une page">
            {Array.from({ length: pageCount }, (_, page) => (
              <button
                key={page}
                type="button"
                className="carousel__indicator"
                aria-label={`Page ${String(page + 1)}`}
                aria-current={page === selected ? 'true' : undefined}
                onClick={() => {
                  navigate((embla, jump) => {
                    embla.scrollTo(page, jump);
                  });
                }}
              />
            ))}
          </div>
          <p className="carousel__page">
            <span className="visually-hidden">{`Page ${String(selected + 1)} sur ${String(pageCount)}`}</span>
            <span aria-hidden="true">{`${String(selected + 1)} / ${String(pageCount)}`}</span>
          </p>
          <button type="button" className="carousel__button carousel__toggle" onClick={togglePlay}>
            {playing ? 'Pause' : 'Lecture'}
            <span className="visually-hidden"> du défilement</span>
          </button>
          <button
            type="button"
            className="carousel__button"
            aria-label="Diapositive suivante"
            onClick={() => {
              navigate(next);
            }}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
      )}
    </section>
  );
}
