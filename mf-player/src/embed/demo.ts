// The demo partner page (/embed/demo.html): what an integrator writes in plain JavaScript, here in
// TypeScript for the project's checks. Buttons choose a replay or the live stream through the DOM
// events of the player; the player's state is shown as it changes.
interface ReplayDetail {
  artist: string;
  show: string;
  url: string;
}

const player = document.querySelector('collectif-player');
const choices = document.getElementById('choix');
const state = document.getElementById('etat');
const snippet = document.getElementById('extrait');

if (snippet !== null) {
  // The snippet names the server the page was loaded from, ready to copy.
  snippet.textContent = snippet.textContent.replaceAll('https://radio.example.org', window.location.origin);
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  element.addEventListener('click', onClick);
  return element;
}

async function showChoices(): Promise<void> {
  if (choices === null) return;
  choices.append(
    button('Écouter le direct', () => {
      window.dispatchEvent(new CustomEvent('collectif:live-selected', { detail: {} }));
    }),
  );
  const apiBase = player?.getAttribute('api-base') ?? `${window.location.origin}/api`;
  try {
    const response = await fetch(`${apiBase}/podcasts?limit=2`);
    if (!response.ok) throw new Error(String(response.status));
    const replays = (await response.json()) as ReplayDetail[];
    for (const replay of replays) {
      choices.append(
        button(`Écouter « ${replay.artist} — ${replay.show} »`, () => {
          window.dispatchEvent(new CustomEvent('collectif:replay-selected', { detail: replay }));
        }),
      );
    }
  } catch {
    choices.append(document.createTextNode(' Les replays sont indisponibles pour le moment.'));
  }
}

window.addEventListener('collectif:player-state', (event) => {
  if (state === null) return;
  const detail = (event as CustomEvent<Record<string, unknown>>).detail;
  state.textContent = JSON.stringify(detail, null, 2);
});

void showChoices();
