/** The Twitch embed script, loaded only when the studio is live. */
export const TWITCH_EMBED_SCRIPT = 'https://embed.twitch.tv/embed/v1.js';

/** After this long without the script, the visitor gets the channel link instead of a spinner. */
const SCRIPT_TIMEOUT_MS = 10_000;

export interface TwitchEmbedOptions {
  channel: string;
  width: string | number;
  height: string | number;
  layout: 'video' | 'video-with-chat';
  parent: string[];
}

export interface TwitchEmbed {
  destroy?: () => void;
}

export interface TwitchGlobal {
  Embed: new (elementId: string, options: TwitchEmbedOptions) => TwitchEmbed;
}

declare global {
  interface Window {
    Twitch?: TwitchGlobal;
  }
}

let loading: Promise<TwitchGlobal> | null = null;

/**
 * Loads the Twitch embed script once per page. A failure (blocked host, offline, timeout) rejects
 * and is forgotten, so that the next live period tries again.
 */
export function loadTwitch(): Promise<TwitchGlobal> {
  if (window.Twitch !== undefined) return Promise.resolve(window.Twitch);
  loading ??= new Promise<TwitchGlobal>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TWITCH_EMBED_SCRIPT;
    script.async = true;
    const fail = (reason: string) => {
      window.clearTimeout(timer);
      script.remove();
      loading = null;
      reject(new Error(reason));
    };
    const timer = window.setTimeout(() => {
      fail('Le lecteur Twitch ne répond pas.');
    }, SCRIPT_TIMEOUT_MS);
    script.addEventListener('load', () => {
      window.clearTimeout(timer);
      if (window.Twitch === undefined) {
        fail('Le lecteur Twitch est incomplet.');
        return;
      }
      resolve(window.Twitch);
    });
    script.addEventListener('error', () => {
      fail('Le lecteur Twitch est inaccessible.');
    });
    document.head.append(script);
  });
  return loading;
}
